"""Liveness: leases on open matches, workers seen, replays and uploaded bots in the database.

Revision ID: 0003_liveness
Revises: 0002_fair_ratings
Create Date: 2026-11-25 02:35:06.289577
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0003_liveness'
down_revision = '0002_fair_ratings'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('botblob',
    sa.Column('content_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('content_hash')
    )
    op.create_table('serviceinfo',
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('value', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    op.create_table('worker',
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('host', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('started_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('heartbeat_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=True),
    sa.Column('matches_done', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('name')
    )
    with op.batch_alter_table('worker', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_worker_heartbeat_at'), ['heartbeat_at'], unique=False)

    op.create_table('replayblob',
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('attempt', sa.Integer(), nullable=False),
    sa.Column('codec', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('size', sa.Integer(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['match.id'], ),
    sa.PrimaryKeyConstraint('match_id')
    )
    with op.batch_alter_table('bot', schema=None) as batch_op:
        batch_op.add_column(sa.Column('content_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True))

    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.add_column(sa.Column('lease_expires_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('dispatches', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('result_attempt', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_match_lease_expires_at'), ['lease_expires_at'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_match_lease_expires_at'))
        batch_op.drop_column('result_attempt')
        batch_op.drop_column('dispatches')
        batch_op.drop_column('lease_expires_at')

    with op.batch_alter_table('bot', schema=None) as batch_op:
        batch_op.drop_column('content_hash')

    op.drop_table('replayblob')
    with op.batch_alter_table('worker', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_worker_heartbeat_at'))

    op.drop_table('worker')
    op.drop_table('serviceinfo')
    op.drop_table('botblob')
