"""The game-host service (no discord imports): lobbies, seats, moves, AI turns, clocks and the posts they owe.

Every mutation of one game runs under that game's lock, so two clicks at once apply one move and
the other is refused with a reason. The lock is an asyncio.Lock, and on a shared database
(PostgreSQL, several processes) also the game's advisory lock there: a process that finds the game
written by another since it loaded it drops its copy and reloads the truth. A move, the snapshot after
it and the posts it owes (outbox rows) are committed in one transaction before anything is posted: the
store is the truth.

One job per module: types (refusals and data), live (locks, the games in memory), lobby, turn (a
move, the AI loop, the commit), owed (what a batch owes: pure), clocks (deadline arithmetic: pure),
timeouts, seats, history (read models), outbox, and host (Tables, composed of them). bot.tables
re-exports the names callers import.
"""
