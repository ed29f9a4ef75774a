"""game_figures: each game's share of its table's statistics, by game and version (a cache)

Revision ID: e5_figures
Revises: c3_tables
Create Date: 2026-12-02 05:20:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e5_figures"
down_revision = "c3_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_figures",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("head", sa.Text(), nullable=False),
        sa.Column("tallies", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("game_figures")
