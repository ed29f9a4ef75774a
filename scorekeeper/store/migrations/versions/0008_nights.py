"""nights: a table's ratings setting, and the nights its players started on purpose

- `tables.ratings`: whether the table's statistics rate its players (off until a phone turns
  it on; the table's version guards the change);
- `night_starts`: a moment from which the table's next game begins a new night, one per table
  and latest game (`after_game_id`, unique with the table): two phones that start the night at
  once start it once.

Revision ID: h8_nights
Revises: g7_entries
Create Date: 2026-12-03 12:40:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "h8_nights"
down_revision = "g7_entries"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # ALTER TABLE, never a batch: on SQLite a batch copies `tables` and drops it, and with
    # foreign keys on, the drop deletes every table's players and seats (ON DELETE CASCADE)
    op.add_column(
        "tables", sa.Column("ratings", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_table(
        "night_starts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("after_game_id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "after_game_id", name="uq_night_starts_table_after"),
    )


def downgrade() -> None:
    op.drop_table("night_starts")
    op.drop_column("tables", "ratings")  # SQLite 3.35+ drops a column in place too
