"""edges: one person per game, one continuation per game, and text that is text

- `seats`: a unique key on (game, player): one person never sits twice in one game. A game
  stored twice-seated before (a merge that raced a new game) gets its later seat back as a
  player of its own ("B 2"), so the key can be made.
- `games.continues_id`: the game a rematch continues, unique: one rematch per finished game.
- Rows stored before text was checked for lone surrogates are repaired: an unpaired surrogate
  becomes U+FFFD in the game records (players, deals, house rules), names, notes, roster names
  and keys, and table names.

Revision ID: d4_edges
Revises: e5_figures
Create Date: 2026-12-02 05:15:00

"""

import unicodedata
from typing import Any

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d4_edges"
down_revision = "e5_figures"
branch_labels = None
depends_on = None

_games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("players", sa.JSON),
    sa.column("deals", sa.JSON),
    sa.column("house_rules", sa.JSON),
    sa.column("name", sa.String),
    sa.column("notes", sa.Text),
    sa.column("version", sa.Integer),
    sa.column("table_id", sa.Integer),
)
_players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("table_id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("key", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
_tables = sa.table("tables", sa.column("id", sa.Integer), sa.column("name", sa.String))
_seats = sa.table(
    "seats",
    sa.column("game_id", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("player_id", sa.Integer),
)


def _repaired(value: Any) -> Any:
    """The value with every unpaired surrogate in its strings replaced by U+FFFD (a pair
    stored as two halves becomes its one character)."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, list):
        return [_repaired(item) for item in value]
    if isinstance(value, dict):
        return {_repaired(key): _repaired(item) for key, item in value.items()}
    return value


def _key(name: str) -> str:
    """The roster's key of a name (scorekeeper.stats.player_key, as of this revision)."""
    folded = unicodedata.normalize("NFC", name).strip().casefold()
    return unicodedata.normalize("NFC", folded)


def _repair_text(connection: Any) -> None:
    columns = ("players", "deals", "house_rules", "name", "notes")
    for row in connection.execute(sa.select(_games.c.id, *(_games.c[c] for c in columns))):
        values = {column: _repaired(row._mapping[column]) for column in columns}
        changed = {
            column: value for column, value in values.items() if value != row._mapping[column]
        }
        if changed:
            connection.execute(
                sa.update(_games)
                .where(_games.c.id == row.id)
                .values(**changed, version=_games.c.version + 1)
            )
    for row in connection.execute(sa.select(_players.c.id, _players.c.name, _players.c.key)):
        name, key = _repaired(row.name), _repaired(row.key)
        if (name, key) != (row.name, row.key):
            connection.execute(
                sa.update(_players).where(_players.c.id == row.id).values(name=name, key=key)
            )
    for row in connection.execute(sa.select(_tables.c.id, _tables.c.name)):
        name = _repaired(row.name)
        if name != row.name:
            connection.execute(sa.update(_tables).where(_tables.c.id == row.id).values(name=name))


def _separate_twice_seated(connection: Any) -> None:
    """A person seated twice in one game keeps their first seat; each later one becomes a
    roster player of its own, named after them with its seat's number, in the record too."""
    twice = connection.execute(
        sa.select(_seats.c.game_id, _seats.c.player_id)
        .group_by(_seats.c.game_id, _seats.c.player_id)
        .having(sa.func.count() > 1)
    ).all()
    for game_id, player_id in twice:
        seats = sorted(
            connection.execute(
                sa.select(_seats.c.seat).where(
                    _seats.c.game_id == game_id, _seats.c.player_id == player_id
                )
            ).scalars()
        )
        game = connection.execute(
            sa.select(_games.c.players, _games.c.table_id).where(_games.c.id == game_id)
        ).one()
        player = connection.execute(
            sa.select(_players.c.name, _players.c.created_at).where(_players.c.id == player_id)
        ).one()
        names = list(game.players)
        for seat in seats[1:]:
            number = seat + 1
            while True:
                name = f"{player.name[:36]} {number}"
                key = _key(name)
                taken = connection.execute(
                    sa.select(_players.c.id).where(
                        _players.c.table_id == game.table_id, _players.c.key == key
                    )
                ).first()
                if taken is None:
                    break
                number += 1
            new_id = connection.execute(
                sa.insert(_players)
                .values(table_id=game.table_id, name=name, key=key, created_at=player.created_at)
                .returning(_players.c.id)
            ).scalar_one()
            connection.execute(
                sa.update(_seats)
                .where(_seats.c.game_id == game_id, _seats.c.seat == seat)
                .values(player_id=new_id)
            )
            names[seat] = name
        connection.execute(
            sa.update(_games)
            .where(_games.c.id == game_id)
            .values(players=names, version=_games.c.version + 1)
        )


def upgrade() -> None:
    connection = op.get_bind()
    _repair_text(connection)
    _separate_twice_seated(connection)
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.create_index("uq_seats_game_player", ["game_id", "player_id"], unique=True)
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("continues_id", sa.Integer(), nullable=True))
        batch_op.create_index("uq_games_continues_id", ["continues_id"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("uq_games_continues_id")
        batch_op.drop_column("continues_id")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index("uq_seats_game_player")
