"""The migrations as bot/store.py wrote them before the store became a package (issue 24): each backend's
text, frozen here so a test can check that the one migration source renders exactly the SQL that ran before."""

# Numbered migrations. A shipped migration is never edited: add a new one at the end.
SQLITE: tuple[str, ...] = (
    # 1: everything the first release needs.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_key TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'over', 'cancelled')),
        seat_order TEXT NOT NULL DEFAULT 'shuffle' CHECK (seat_order IN ('shuffle', 'join')),
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        thread_id INTEGER,
        creator_id INTEGER NOT NULL,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        dm_closed_told TEXT NOT NULL DEFAULT '[]',
        result TEXT,
        turn_hours INTEGER,
        turn_deadline REAL,
        timeout_action TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX games_by_status ON games (status);
    -- one open game per channel or thread
    CREATE UNIQUE INDEX games_one_open_per_place ON games (coalesce(thread_id, channel_id))
        WHERE status IN ('lobby', 'running');
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        user_id INTEGER,
        ai_kind TEXT,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id),
        CHECK ((user_id IS NULL) <> (ai_kind IS NULL))
    ) WITHOUT ROWID;
    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        notation TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, n)
    ) WITHOUT ROWID;
    CREATE TABLE snapshots (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        n INTEGER NOT NULL,
        state TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id),
        kind TEXT NOT NULL,
        seat INTEGER,
        payload TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX outbox_by_game ON outbox (game_id, id);
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}'
    );
    """,
    # 2: asynchronous play: table clock options, per-seat turn clocks, seat and user preferences.
    # turn_hours (0 = no timer), turn_deadline (the earliest running deadline, for listings) and
    # timeout_action come from migration 1; games made before this migration keep no timer.
    """
    ALTER TABLE games ADD COLUMN max_timeouts INTEGER NOT NULL DEFAULT 3;
    ALTER TABLE games ADD COLUMN vacation_hours INTEGER NOT NULL DEFAULT 72;
    ALTER TABLE games ADD COLUMN board_posted_at REAL;
    -- One running turn clock per seat that must act. `token` is the seat's decision count when
    -- the clock started: a clock whose token is behind the seat's moves is stale, never fired.
    CREATE TABLE clocks (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        token INTEGER NOT NULL,
        started_at REAL NOT NULL,
        deadline REAL NOT NULL,
        reminders_sent INTEGER NOT NULL DEFAULT 0,
        channel_told INTEGER NOT NULL DEFAULT 0,
        next_due REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX clocks_by_due ON clocks (next_due);
    CREATE TABLE seat_prefs (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        muted INTEGER NOT NULL DEFAULT 0,
        timeouts INTEGER NOT NULL DEFAULT 0,
        vacation_until REAL,
        vacation_used REAL NOT NULL DEFAULT 0,
        away_user_id INTEGER,
        away_name TEXT,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE TABLE user_prefs (
        user_id INTEGER PRIMARY KEY,
        tz TEXT,
        quiet_start INTEGER,
        quiet_end INTEGER
    );
    """,
    # 3: which seats a running game awaits, so a restart resumes only games where an AI owes a
    # move instead of loading every running game's state (NULL: unknown, check on next start).
    """
    ALTER TABLE games ADD COLUMN to_act TEXT;
    """,
    # 4: what must not be doubled or forged. dm_state: a digest of the private view each seat was
    # last DM'd, written with the DM's outbox row, so a restart does not send an unchanged hand
    # again. seat_offers: a seat offered by its holder to one member, kept server side so a
    # forged "accept" id cannot give a seat away; an offer is used once and expires.
    """
    CREATE TABLE dm_state (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        digest TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE TABLE seat_offers (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        giver_id INTEGER NOT NULL,
        taker_id INTEGER NOT NULL,
        expires_at REAL NOT NULL
    );
    """,
    # 5: each interaction that led to a move, written in the move's transaction: a repeated
    # interaction id (a client or gateway retry, a second process) never applies twice.
    """
    CREATE TABLE interactions (
        interaction_id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id),
        n INTEGER NOT NULL,
        at REAL NOT NULL
    );
    """,
    # 6: outbox.batch: the first row id of the post that is sending this row, set before sending,
    # so a retry after a crash sends the same rows under the same message nonces (Discord then
    # returns the first message instead of posting a second one).
    """
    ALTER TABLE outbox ADD COLUMN batch INTEGER;
    """,
    # 7: several processes on one database (PostgreSQL): `version` counts the writes to a game, so a
    # process holding an older copy knows to reload it; the flush lease says which process is sending
    # a game's owed posts, and until when (another process takes them over after that).
    """
    ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN flush_owner TEXT;
    ALTER TABLE games ADD COLUMN flush_until REAL;
    """,
    # 8: the words of a game's current board post (the previous turn summed up, and this turn's
    # lines so far: edits of the post grow them, a restart keeps them), and each user's choice of
    # DMs: all (default), turn (only when their turn begins, with the private news of the turn) or off.
    """
    ALTER TABLE games ADD COLUMN post_words TEXT;
    ALTER TABLE user_prefs ADD COLUMN dms TEXT;
    """,
    # 9: the lines the game's live board post shows (JSON), stored with its message id: an edit of
    # that post keeps them, also when the post gathered a backlog of several owed posts (issue 29).
    """
    ALTER TABLE games ADD COLUMN board_words TEXT;
    """,
    # 10: ratings (bot/rating_store.py). seat_holders: who held each seat of a started game from which
    # move on (written with every seat change), so a finished game knows each human's share of a seat
    # and who left it to the AI. ratings: one per (scope, title, user); scope 'global' or 'guild:<id>'
    # (later 'season:<id>'). rated_games: the ledger, one row per game and scope, whose key makes each
    # game's update happen once. rating_changes: each update (history; recomputing a scope from its base).
    """
    CREATE TABLE seat_holders (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        from_n INTEGER NOT NULL,
        user_id INTEGER,
        ai_kind TEXT,
        PRIMARY KEY (game_id, seat, from_n)
    ) WITHOUT ROWID;
    CREATE TABLE ratings (
        scope TEXT NOT NULL,
        game_key TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        last_game_id INTEGER NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (scope, game_key, user_id)
    ) WITHOUT ROWID;
    CREATE TABLE rated_games (
        game_id INTEGER NOT NULL REFERENCES games (id),
        scope TEXT NOT NULL,
        rated INTEGER NOT NULL,
        applied_at REAL NOT NULL,
        PRIMARY KEY (game_id, scope)
    ) WITHOUT ROWID;
    CREATE TABLE rating_changes (
        game_id INTEGER NOT NULL REFERENCES games (id),
        scope TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        game_key TEXT NOT NULL,
        rank INTEGER NOT NULL,
        weight REAL NOT NULL,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, scope, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX rating_changes_by_user ON rating_changes (user_id, scope, game_key, at);
    -- the sweep for finished games not rated yet looks only at games written lately
    CREATE INDEX games_over_by_update ON games (updated_at) WHERE status = 'over';
    """,
    # 11: community (issue 26: /profile, /leaderboard, /history). seat_prefs.timeouts_total: every timeout
    # of the seat (timeouts counts those in a row and starts again). Indexes: a member's games (final
    # seats and hand-overs), a server's finished games newest first, and each scope's leaderboard for a
    # title in the order of the number players see (mu - 3 sigma), covering what a page shows.
    """
    ALTER TABLE seat_prefs ADD COLUMN timeouts_total INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX seats_by_user ON seats (user_id, game_id);
    CREATE INDEX seat_holders_by_user ON seat_holders (user_id, game_id);
    CREATE INDEX games_over_by_guild ON games (guild_id, updated_at) WHERE status = 'over';
    CREATE INDEX ratings_by_ordinal ON ratings (scope, game_key, (mu - 3 * sigma), games, user_id, mu, sigma);
    """,
    # 12
    """
    CREATE TABLE rematches (
        from_game_id INTEGER PRIMARY KEY REFERENCES games (id),
        game_id INTEGER NOT NULL REFERENCES games (id),
        seats INTEGER NOT NULL,
        at REAL NOT NULL
    );
    CREATE UNIQUE INDEX rematches_by_game ON rematches (game_id);
    CREATE TABLE rematch_invites (
        game_id INTEGER NOT NULL REFERENCES games (id),
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        answer TEXT CHECK (answer IN ('yes', 'no')),
        PRIMARY KEY (game_id, user_id)
    ) WITHOUT ROWID;
    CREATE TABLE lobby_rules (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        min_reliability INTEGER NOT NULL
    );
    -- a player's reliability reads their seats (seats_by_user, 11) and the seats they left to the AI
    CREATE INDEX seat_prefs_by_away ON seat_prefs (away_user_id) WHERE away_user_id IS NOT NULL;
    """,
    # 13
    """
    CREATE TABLE seasons (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        weeks INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        starts_at REAL NOT NULL,
        ends_at REAL NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'over', 'stopped')),
        results_message_id INTEGER,
        results_owner TEXT,
        results_until REAL,
        UNIQUE (guild_id, number)
    );
    CREATE UNIQUE INDEX seasons_one_running ON seasons (guild_id) WHERE status = 'running';
    """,
    # 14
    """
    CREATE TABLE words_upgrade (
        game_id INTEGER PRIMARY KEY REFERENCES games (id)
    );
    INSERT INTO words_upgrade (game_id)
        SELECT id FROM games WHERE status = 'running' OR id IN (SELECT game_id FROM outbox)
            OR (status = 'over' AND result LIKE '%"ended_by":%Time ran out for %');
    """,
)

# The same migrations, number for number, in PostgreSQL's dialect: Discord ids need BIGINT (SQLite's
# INTEGER is 64-bit already), times are DOUBLE PRECISION, ids come from BIGSERIAL. Same tables,
# columns, keys and constraints (a test compares the two schemas).
POSTGRES: tuple[str, ...] = (
    # 1
    """
    CREATE TABLE games (
        id BIGSERIAL PRIMARY KEY,
        game_key TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seed BIGINT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'over', 'cancelled')),
        seat_order TEXT NOT NULL DEFAULT 'shuffle' CHECK (seat_order IN ('shuffle', 'join')),
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        thread_id BIGINT,
        creator_id BIGINT NOT NULL,
        lobby_message_id BIGINT,
        board_message_id BIGINT,
        dm_closed_told TEXT NOT NULL DEFAULT '[]',
        result TEXT,
        turn_hours INTEGER,
        turn_deadline DOUBLE PRECISION,
        timeout_action TEXT,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX games_by_status ON games (status);
    CREATE UNIQUE INDEX games_one_open_per_place ON games ((coalesce(thread_id, channel_id)))
        WHERE status IN ('lobby', 'running');
    CREATE TABLE seats (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        user_id BIGINT,
        ai_kind TEXT,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id),
        CHECK ((user_id IS NULL) <> (ai_kind IS NULL))
    );
    CREATE TABLE moves (
        game_id BIGINT NOT NULL REFERENCES games (id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        notation TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE snapshots (
        game_id BIGINT PRIMARY KEY REFERENCES games (id),
        n INTEGER NOT NULL,
        state TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE outbox (
        id BIGSERIAL PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games (id),
        kind TEXT NOT NULL,
        seat INTEGER,
        payload TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX outbox_by_game ON outbox (game_id, id);
    CREATE TABLE guild_settings (
        guild_id BIGINT PRIMARY KEY,
        settings TEXT NOT NULL DEFAULT '{}'
    );
    """,
    # 2
    """
    ALTER TABLE games ADD COLUMN max_timeouts INTEGER NOT NULL DEFAULT 3;
    ALTER TABLE games ADD COLUMN vacation_hours INTEGER NOT NULL DEFAULT 72;
    ALTER TABLE games ADD COLUMN board_posted_at DOUBLE PRECISION;
    CREATE TABLE clocks (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        token INTEGER NOT NULL,
        started_at DOUBLE PRECISION NOT NULL,
        deadline DOUBLE PRECISION NOT NULL,
        reminders_sent INTEGER NOT NULL DEFAULT 0,
        channel_told INTEGER NOT NULL DEFAULT 0,
        next_due DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX clocks_by_due ON clocks (next_due);
    CREATE TABLE seat_prefs (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        muted INTEGER NOT NULL DEFAULT 0,
        timeouts INTEGER NOT NULL DEFAULT 0,
        vacation_until DOUBLE PRECISION,
        vacation_used DOUBLE PRECISION NOT NULL DEFAULT 0,
        away_user_id BIGINT,
        away_name TEXT,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE user_prefs (
        user_id BIGINT PRIMARY KEY,
        tz TEXT,
        quiet_start INTEGER,
        quiet_end INTEGER
    );
    """,
    # 3
    """
    ALTER TABLE games ADD COLUMN to_act TEXT;
    """,
    # 4
    """
    CREATE TABLE dm_state (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        digest TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE seat_offers (
        id BIGSERIAL PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        giver_id BIGINT NOT NULL,
        taker_id BIGINT NOT NULL,
        expires_at DOUBLE PRECISION NOT NULL
    );
    """,
    # 5
    """
    CREATE TABLE interactions (
        interaction_id BIGINT PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games (id),
        n INTEGER NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    """,
    # 6
    """
    ALTER TABLE outbox ADD COLUMN batch BIGINT;
    """,
    # 7
    """
    ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN flush_owner TEXT;
    ALTER TABLE games ADD COLUMN flush_until DOUBLE PRECISION;
    """,
    # 8
    """
    ALTER TABLE games ADD COLUMN post_words TEXT;
    ALTER TABLE user_prefs ADD COLUMN dms TEXT;
    """,
    # 9
    """
    ALTER TABLE games ADD COLUMN board_words TEXT;
    """,
    # 10
    """
    CREATE TABLE seat_holders (
        game_id BIGINT NOT NULL REFERENCES games (id),
        seat INTEGER NOT NULL,
        from_n INTEGER NOT NULL,
        user_id BIGINT,
        ai_kind TEXT,
        PRIMARY KEY (game_id, seat, from_n)
    );
    CREATE TABLE ratings (
        scope TEXT NOT NULL,
        game_key TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games INTEGER NOT NULL,
        last_game_id BIGINT NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (scope, game_key, user_id)
    );
    CREATE TABLE rated_games (
        game_id BIGINT NOT NULL REFERENCES games (id),
        scope TEXT NOT NULL,
        rated INTEGER NOT NULL,
        applied_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, scope)
    );
    CREATE TABLE rating_changes (
        game_id BIGINT NOT NULL REFERENCES games (id),
        scope TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        game_key TEXT NOT NULL,
        rank INTEGER NOT NULL,
        weight DOUBLE PRECISION NOT NULL,
        mu_before DOUBLE PRECISION NOT NULL,
        sigma_before DOUBLE PRECISION NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, scope, user_id)
    );
    CREATE INDEX rating_changes_by_user ON rating_changes (user_id, scope, game_key, at);
    -- the sweep for finished games not rated yet looks only at games written lately
    CREATE INDEX games_over_by_update ON games (updated_at) WHERE status = 'over';
    """,
    # 11
    """
    ALTER TABLE seat_prefs ADD COLUMN timeouts_total INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX seats_by_user ON seats (user_id, game_id);
    CREATE INDEX seat_holders_by_user ON seat_holders (user_id, game_id);
    CREATE INDEX games_over_by_guild ON games (guild_id, updated_at) WHERE status = 'over';
    CREATE INDEX ratings_by_ordinal ON ratings (scope, game_key, (mu - 3 * sigma), games, user_id, mu, sigma);
    """,
    # 12
    """
    CREATE TABLE rematches (
        from_game_id BIGINT PRIMARY KEY REFERENCES games (id),
        game_id BIGINT NOT NULL REFERENCES games (id),
        seats INTEGER NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    CREATE UNIQUE INDEX rematches_by_game ON rematches (game_id);
    CREATE TABLE rematch_invites (
        game_id BIGINT NOT NULL REFERENCES games (id),
        user_id BIGINT NOT NULL,
        name TEXT NOT NULL,
        answer TEXT CHECK (answer IN ('yes', 'no')),
        PRIMARY KEY (game_id, user_id)
    );
    CREATE TABLE lobby_rules (
        game_id BIGINT PRIMARY KEY REFERENCES games (id),
        min_reliability INTEGER NOT NULL
    );
    -- a player's reliability reads their seats (seats_by_user, 11) and the seats they left to the AI
    CREATE INDEX seat_prefs_by_away ON seat_prefs (away_user_id) WHERE away_user_id IS NOT NULL;
    """,
    # 13
    """
    CREATE TABLE seasons (
        id BIGSERIAL PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        number INTEGER NOT NULL,
        weeks INTEGER NOT NULL,
        channel_id BIGINT NOT NULL,
        starts_at DOUBLE PRECISION NOT NULL,
        ends_at DOUBLE PRECISION NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'over', 'stopped')),
        results_message_id BIGINT,
        results_owner TEXT,
        results_until DOUBLE PRECISION,
        UNIQUE (guild_id, number)
    );
    CREATE UNIQUE INDEX seasons_one_running ON seasons (guild_id) WHERE status = 'running';
    """,
    # 14
    """
    CREATE TABLE words_upgrade (
        game_id BIGINT PRIMARY KEY REFERENCES games (id)
    );
    INSERT INTO words_upgrade (game_id)
        SELECT id FROM games WHERE status = 'running' OR id IN (SELECT game_id FROM outbox)
            OR (status = 'over' AND result LIKE '%"ended_by":%Time ran out for %');
    """,
)
