"""zones: the UTC offset of the phone that began a game

- `games.utc_offset`: minutes east of UTC where the game was played (the phone's zone when it
  began the game, or the offset of an imported record's `created_at`); null where unknown (a
  game from before, a phone without JavaScript): shown in the server's zone, as before.

Revision ID: i9_zones
Revises: h8_nights
Create Date: 2026-12-07 13:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "i9_zones"
down_revision = "h8_nights"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # ALTER TABLE, never a batch (see h8_nights: a batch copies and drops the table)
    op.add_column("games", sa.Column("utc_offset", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "utc_offset")  # SQLite 3.35+ drops a column in place too
