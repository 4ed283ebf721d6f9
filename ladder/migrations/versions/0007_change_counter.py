"""A counter per kind of row the scheduler keeps in memory, moved by the database itself on every change of a bot.

Revision ID: 0007_change_counter
Revises: 0006_seat_output
Create Date: 2026-11-27 06:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0007_change_counter'
down_revision = '0006_seat_output'
branch_labels = None
depends_on = None

BUMP_SQLITE = ("INSERT INTO changecounter (name, value) VALUES ('bots', 1) "
               "ON CONFLICT (name) DO UPDATE SET value = value + 1;")


def upgrade() -> None:
    op.create_table('changecounter',
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('value', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )
    if op.get_bind().dialect.name == 'postgresql':
        # Deferred to the commit: the counter's row is locked last, after every bot row a transaction locks.
        op.execute("""
            CREATE FUNCTION ladder_count_bot_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO changecounter (name, value) VALUES ('bots', 1)
                ON CONFLICT (name) DO UPDATE SET value = changecounter.value + 1;
                RETURN NULL;
            END $$""")
        op.execute("CREATE CONSTRAINT TRIGGER bot_changed AFTER INSERT OR UPDATE OR DELETE ON bot "
                   "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ladder_count_bot_change()")
    else:
        for event in ('INSERT', 'UPDATE', 'DELETE'):
            op.execute(f"CREATE TRIGGER bot_changed_{event.lower()} AFTER {event} ON bot BEGIN {BUMP_SQLITE} END")


def downgrade() -> None:
    if op.get_bind().dialect.name == 'postgresql':
        op.execute("DROP TRIGGER IF EXISTS bot_changed ON bot")
        op.execute("DROP FUNCTION IF EXISTS ladder_count_bot_change()")
    else:
        for event in ('insert', 'update', 'delete'):
            op.execute(f"DROP TRIGGER IF EXISTS bot_changed_{event}")
    op.drop_table('changecounter')
