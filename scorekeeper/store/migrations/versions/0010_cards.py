"""cards: what a game's card on its table's page shows, kept with the game

- `games.card`: the engine's totals per seat, the teams' totals (a partnership) and the
  winning seats (a finished game), as JSON: a cache of the replay, rewritten with the deals
  on every save (like `deal_count` and `finished`), so a table's page lists its games without
  replaying any. NULL for a game stored before this revision: made, once, by the first page
  that shows it;
- `ix_games_table_first`: a table's games by whether they have begun (their first chooser),
  so its roster counts the games each player sat in without reading every game.

Revision ID: j10_cards
Revises: i9_zones
Create Date: 2026-12-07 13:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "j10_cards"
down_revision = "i9_zones"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # ALTER TABLE, never a batch: on SQLite a batch copies `games` and drops it, and with
    # foreign keys on, the drop deletes every game's seats, entries and figures (CASCADE)
    op.add_column("games", sa.Column("card", sa.JSON(), nullable=True))
    op.create_index("ix_games_table_first", "games", ["table_id", "first"])


def downgrade() -> None:
    op.drop_index("ix_games_table_first", table_name="games")
    op.drop_column("games", "card")  # SQLite 3.35+ drops a column in place too
