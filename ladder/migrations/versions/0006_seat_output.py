"""A bot's own output per decision, kept for its owner apart from the public replay.

Revision ID: 0006_seat_output
Revises: 0005_accounts
Create Date: 2026-11-27 02:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0006_seat_output'
down_revision = '0005_accounts'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('seatoutput',
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['match.id'], ),
    sa.PrimaryKeyConstraint('match_id', 'seat')
    )


def downgrade() -> None:
    op.drop_table('seatoutput')
