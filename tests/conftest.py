"""Shared by every test folder: a throwaway PostgreSQL server for the tests that run on it, and the `slow` mark."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.pg_server import INSTALL_HINT, find_bin, throwaway_server


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The admin URL of a PostgreSQL server started for this test session (stopped at its end).

    Without server binaries the PostgreSQL tests are skipped with the install hint, unless
    JUNCTION_REQUIRE_PG=1 (CI): then they fail.
    """
    if find_bin() is None:
        if os.environ.get("JUNCTION_REQUIRE_PG") == "1":
            pytest.fail(f"JUNCTION_REQUIRE_PG=1 but {INSTALL_HINT}", pytrace=False)
        pytest.skip(INSTALL_HINT)
    with throwaway_server() as url:
        yield url


# The tests that take 1 s or more (all parameters of a test function together) in a whole run on the
# shared 2-core machine, besides the ones marked `@pytest.mark.slow` in place: marked `slow` here, so
# that `python -m pytest -m "not slow"` is the everyday fast subset (docs/testing.md); the README's
# test command and CI still run them. Chosen from `python -m pytest -q --durations=0` (2026-11-28,
# load average 2.4-3.5). `path::function` marks a test function with all its parameters; a bare path
# would mark a whole module. tests/test_project.py checks that every entry still names a test.
SLOW = frozenset({
    "tests/rules/great_western/test_ai.py::test_greedy_beats_random_clearly",
    "tests/rules/great_western/test_moves.py::test_routes_are_cheapest_and_valid",
    "tests/rules/off_the_rails/test_ai.py::test_picks_both_hands_and_splits_evenly",
    "tests/rules/off_the_rails/test_ai.py::test_tables_are_those_of_the_plain_search_to_the_last_bit",
    "tests/rules/off_the_rails/test_fuzz.py::test_fuzz_small_every_check_every_move",
    "tests/rules/santa_fe/test_fuzz.py::test_full_checks_every_move",
    "tests/rules/santa_fe/test_moves.py::test_greedy_beats_random",
    "tests/rules/santa_fe/test_moves.py::test_random_play_refuses_without_trace",
    "tests/rules/test_ai_twins.py::test_hard_level_at_full_budget_ignores_secrets",
    "tests/rules/test_ai_twins.py::test_twin_positions_give_the_same_choice",
    "tests/rules/test_contract.py::test_contract_holds_through_a_whole_game",
    "tests/rules/test_hostile_input.py::test_any_text_is_read_or_refused",
    "tests/rules/test_hostile_input.py::test_hand_built_moves_are_applied_or_refused",
    "tests/rules/trans_europa/test_ai.py::test_greedy_tracks_lower_its_penalty_by_their_cost",
    "tests/rules/trans_europa/test_ai.py::test_hard_budget_shrinks_with_the_rivals_a_rollout_plays",
    "tests/rules/trans_europa/test_ai.py::test_thrifty_builds_first_the_lines_no_one_else_wants",
    "tests/rules/trans_europa/test_board.py::test_e5_empty_board",
    "tests/rules/trans_europa/test_board.py::test_reference_histogram_2_3_player_deck",
    "tests/rules/trans_europa/test_board.py::test_shortening_lines_match_the_line_by_line_definition",
    "tests/rules/trans_europa/test_board.py::test_tracks_needed_matches_independent_solver",
    "tests/rules/trans_europa/test_fuzz.py::test_fuzz_games",
    "tests/rules/ttr_cards/test_ai.py::test_greedy_beats_random_over_200_seeded_games",
    "tests/rules/ttr_cards/test_ai_blunders.py::test_last_turn_keep_is_the_best_subset_the_bounds_skip_nothing_better",
    "tests/rules/ttr_cards/test_completion.py::test_best_completion_matches_a_brute_force",
    "tests/rules/ttr_cards/test_completion.py::test_best_completion_matches_the_previous_search_on_large_hands",
    "tests/rules/ttr_cards/test_fuzz.py::test_fuzz_full_checks_every_move",
    "tests/rules/ttr_cards/test_moves.py::test_every_listed_move_applies_and_others_are_refused",
    "tests/render/test_layout_great_western.py::test_great_western_layout",
    "tests/render/test_layout_off_the_rails.py::test_off_the_rails_layout",
    "tests/render/test_layout_santa_fe.py::test_santa_fe_layout",
    "tests/render/test_layout_trans_europa.py::test_board_hand_and_round_end_images_have_a_clean_layout",
    "tests/render/test_layout_trans_europa.py::test_coloured_track_variant_has_a_clean_layout",
    "tests/render/test_layout_ttr_cards.py::test_table_hand_and_scoring_images_have_a_clean_layout",
    "tests/render/test_off_the_rails.py::test_every_phase_of_played_games_renders",
    "tests/render/test_replay.py::test_gif_is_downscaled_capped_and_loops",
    "tests/render/test_santa_fe.py::test_every_phase_renders_basic_and_advanced",
    "tests/render/test_trans_europa.py::test_every_phase_of_a_played_game_renders",
    "tests/render/test_trans_europa.py::test_fixture_views_render_for_every_seat_count",
    "tests/i18n/test_great_western_ja.py::test_every_image_label_is_translated",
    "tests/i18n/test_great_western_ja.py::test_every_line_of_played_games_is_translated",
    "tests/i18n/test_off_the_rails_ja.py::test_every_line_of_played_games_is_translated",
    "tests/i18n/test_off_the_rails_ja.py::test_images_draw_no_english_word",
    "tests/i18n/test_santa_fe_ja.py::test_alt_text_is_translated",
    "tests/i18n/test_santa_fe_ja.py::test_images_draw_every_word_in_japanese",
    "tests/i18n/test_santa_fe_ja.py::test_played_games_are_translated",
    "tests/i18n/test_trans_europa_ja.py::test_image_labels_are_japanese",
    "tests/i18n/test_trans_europa_ja.py::test_played_games_are_all_japanese",
    "tests/i18n/test_ttr_cards_ja.py::test_image_labels_are_japanese",
    "tests/i18n/test_ttr_cards_ja.py::test_played_games_are_all_japanese",
    "tests/i18n/test_community_ja.py::test_every_community_text_is_translated_with_its_placeholders",
    "tests/bot/test_ai_levels.py::test_a_hard_decision_in_the_worker_is_the_one_made_in_process",
    "tests/bot/test_ai_levels.py::test_ai_workers_end_when_the_bot_is_killed",
    "tests/bot/test_bad_db.py::test_python_m_bot_on_a_bad_database_exits_with_one_line",
    "tests/bot/test_bad_db.py::test_python_m_bot_on_a_locked_database_exits_with_one_line",
    "tests/bot/test_hardening_commit.py::test_an_error_anywhere_in_a_batch_leaves_memory_equal_to_the_store",
    "tests/bot/test_hardening_commit.py::test_santa_fe_an_ai_failing_beside_a_human_leaves_the_game_as_stored",
    "tests/bot/test_picker.py::test_off_the_rails_lays_take_three_clicks_at_most",
    "tests/e2e/test_ai_levels.py::test_a_lobby_adds_a_hard_ai_that_plays_the_game_to_the_end",
    "tests/e2e/test_async_play.py::test_deadline_reminders_with_a_working_dm_button_then_the_ai_plays",
    "tests/e2e/test_end_of_game.py::test_final_post_reveals_hands_with_log_file_and_replay_gif",
    "tests/e2e/test_end_of_game_interlude.py::test_round_end_image_precedes_the_board_post",
    "tests/e2e/test_exactly_once_posts.py::test_a_long_backlog_arrives_complete_in_several_posts",
    "tests/e2e/test_exactly_once_posts.py::test_discords_own_retry_after_a_502_does_not_double_the_board",
    "tests/e2e/test_exactly_once_posts.py::test_restarts_do_not_resend_hand_dms",
    "tests/e2e/test_exactly_once_posts.py::test_sigkill_at_the_upload_then_a_restart_posts_nothing_twice",
    "tests/e2e/test_outbox_kills.py::test_sigkill_again_and_again_says_every_line_once_and_no_dm_twice",
    "tests/e2e/test_platform.py::test_lobby_game_and_picker_through_buttons",
    "tests/e2e/test_platform_trans_europa.py::test_one_player_against_two_ai_seats",
    "tests/e2e/test_platform_trans_europa.py::test_three_players_play_trans_europa_to_the_end",
    "tests/e2e/test_rematch.py::test_a_decline_and_an_outsider_in_the_open_seat",
    "tests/e2e/test_rematch.py::test_rematch_from_the_final_post_one_lobby_one_click_each_and_it_starts",
    "tests/e2e/test_seasons.py::test_a_season_is_started_by_an_admin_ranked_and_its_end_posted_once",
    "tests/e2e/test_seasons.py::test_two_processes_post_a_seasons_end_once",
    "tests/e2e/test_second_instance.py::test_two_first_starts_on_a_new_file_neither_hang_nor_crash",
    "tests/e2e/test_shards.py::test_two_processes_share_a_game_and_one_survives_the_others_death",
    "tests/e2e/test_table_traffic.py::test_a_whole_game_posts_per_turn_pings_once_and_dms_what_matters",
    "tests/e2e/test_names.py::test_names_like_catalog_words_stay_verbatim_in_posts_dms_and_logs",
    "tests/e2e/test_pseudo_locale.py::test_a_whole_game_in_the_pseudo_locale_shows_no_english",
    "tests/e2e/test_table_traffic.py::test_off_the_rails_through_the_turn_panel",
    "tests/e2e/test_turn_panel.py::test_an_expired_panel_says_so_and_take_turn_opens_a_fresh_one",
    "tests/e2e/test_turn_panel.py::test_the_panel_stays_open_offers_undo_and_closes_with_a_summary",
    "tests/test_cli.py::test_a_shutdown_during_a_move_finishes_and_answers_it",
    "tests/test_cli.py::test_render_workers_exit_after_the_bot_is_killed",
    "tests/test_demo.py::test_demo_in_japanese_writes_a_japanese_log_and_standings",
    "tests/test_demo.py::test_demo_plays_a_whole_game_and_writes_readable_images",
})


# Fixtures that play whole games first (tests/i18n: `played`, once per module): a test using one is slow.
SLOW_FIXTURES = frozenset({"played"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path, _, name = item.nodeid.partition("::")
        if (path in SLOW or f"{path}::{name.split('[')[0]}" in SLOW
                or SLOW_FIXTURES & set(getattr(item, "fixturenames", ()))):
            item.add_marker(pytest.mark.slow)
