"""entries: each entry stored into a game once, by the key its form was made with

A deal form (or a phone offline) makes a random key for its entry; the game stores the entry
at most once per key: a unique key on (game, key), written in the same transaction as the
game's version-guarded UPDATE, with the deal's number, the game's version after the write and
the deal as stored. A save sent again, or a late answer asked about, is answered from it.

Revision ID: g7_entries
Revises: f6_changes
Create Date: 2026-12-04 09:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "g7_entries"
down_revision = "f6_changes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=36), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("deal", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "key", name="uq_entries_game_key"),
    )


def downgrade() -> None:
    op.drop_table("entries")
