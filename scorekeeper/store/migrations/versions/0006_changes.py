"""changes: PostgreSQL tells listening servers which game changed (a trigger on games)

Each app process keeps the versions of the games its phones poll (scorekeeper.store.versions),
so an unchanged game's poll asks the database nothing. That is exact only if the process hears
of every change, whoever made it: this trigger sends `NOTIFY scorekeeper_games` with the game's
two tokens after any update or delete of a row of `games`, and `*` after a TRUNCATE. PostgreSQL
delivers a notification only when its transaction commits. SQLite has no notifications: there
every poll reads the version, and this migration does nothing.

Revision ID: f6_changes
Revises: d4_edges
Create Date: 2026-12-02 11:00:00

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "f6_changes"
down_revision = "d4_edges"
branch_labels = None
depends_on = None

CHANNEL = "scorekeeper_games"  # scorekeeper.store.versions.CHANNEL


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        f"""
        CREATE FUNCTION scorekeeper_game_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'TRUNCATE' THEN
                PERFORM pg_notify('{CHANNEL}', '*');
            ELSE
                PERFORM pg_notify('{CHANNEL}', OLD.token || ' ' || OLD.view_token);
            END IF;
            RETURN NULL;
        END
        $$
        """
    )
    op.execute(
        "CREATE TRIGGER games_changed AFTER UPDATE OR DELETE ON games "
        "FOR EACH ROW EXECUTE FUNCTION scorekeeper_game_changed()"
    )
    op.execute(
        "CREATE TRIGGER games_truncated AFTER TRUNCATE ON games "
        "FOR EACH STATEMENT EXECUTE FUNCTION scorekeeper_game_changed()"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER games_truncated ON games")
    op.execute("DROP TRIGGER games_changed ON games")
    op.execute("DROP FUNCTION scorekeeper_game_changed()")
