"""Live replays across machines: the running attempt's replay lines, written by the worker.

Revision ID: 0004_live_chunks
Revises: 0003_liveness
Create Date: 2026-11-25 06:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


revision = '0004_live_chunks'
down_revision = '0003_liveness'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('livechunk',
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('attempt', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['match.id'], ),
    sa.PrimaryKeyConstraint('match_id', 'attempt', 'seq')
    )


def downgrade() -> None:
    op.drop_table('livechunk')
