"""limits: counted actions and slots, shared by every worker and host

Revision ID: b2_limits
Revises: a38eda85ebd0
Create Date: 2026-12-01 21:40:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b2_limits"
down_revision = "a38eda85ebd0"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "limit_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("limit_events", schema=None) as batch_op:
        batch_op.create_index(
            "ix_limit_events_kind_address_at", ["kind", "address", "at"], unique=False
        )
        batch_op.create_index("ix_limit_events_kind_at", ["kind", "at"], unique=False)
    op.create_table(
        "limit_slots",
        sa.Column("key", sa.String(length=96), nullable=False),
        sa.Column("next_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )


def downgrade() -> None:
    op.drop_table("limit_slots")
    with op.batch_alter_table("limit_events", schema=None) as batch_op:
        batch_op.drop_index("ix_limit_events_kind_at")
        batch_op.drop_index("ix_limit_events_kind_address_at")
    op.drop_table("limit_events")
