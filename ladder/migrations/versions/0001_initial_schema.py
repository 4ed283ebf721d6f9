"""Initial schema: bots, tokens, ratings, matches, seats, notices.

Revision ID: 0001
Revises: 
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('bot',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('owner', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('game', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('version', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('command', sa.JSON(), nullable=False),
    sa.Column('store_path', sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=True),
    sa.Column('sandbox', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('paused_reason', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name', name='uq_bot_name')
    )
    with op.batch_alter_table('bot', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_bot_game'), ['game'], unique=False)
        batch_op.create_index(batch_op.f('ix_bot_name'), ['name'], unique=False)
        batch_op.create_index(batch_op.f('ix_bot_status'), ['status'], unique=False)

    op.create_table('gamecounter',
    sa.Column('game', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('rating_seq', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('game')
    )
    op.create_table('match',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('uid', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('game', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('config', sa.JSON(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.Column('worker', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('dispatched_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('started_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('heartbeat_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('finished_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.Column('replay_path', sqlmodel.sql.sqltypes.AutoString(length=1000), nullable=True),
    sa.Column('decisions', sa.Integer(), nullable=True),
    sa.Column('duration_seconds', sa.Float(), nullable=True),
    sa.Column('void_reason', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=True),
    sa.Column('rating_seq', sa.Integer(), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('uid')
    )
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_match_game'), ['game'], unique=False)
        batch_op.create_index(batch_op.f('ix_match_rating_seq'), ['rating_seq'], unique=False)
        batch_op.create_index(batch_op.f('ix_match_status'), ['status'], unique=False)

    op.create_table('bottoken',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('bot_id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('revoked', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['bot_id'], ['bot.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token_hash')
    )
    with op.batch_alter_table('bottoken', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_bottoken_bot_id'), ['bot_id'], unique=False)

    op.create_table('notice',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('bot_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('message', sqlmodel.sql.sqltypes.AutoString(length=4000), nullable=False),
    sa.ForeignKeyConstraint(['bot_id'], ['bot.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_notice_bot_id'), ['bot_id'], unique=False)

    op.create_table('rating',
    sa.Column('bot_id', sa.Integer(), nullable=False),
    sa.Column('game', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('rating', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['bot_id'], ['bot.id'], ),
    sa.PrimaryKeyConstraint('bot_id')
    )
    with op.batch_alter_table('rating', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rating_game'), ['game'], unique=False)

    op.create_table('seat',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('bot_id', sa.Integer(), nullable=False),
    sa.Column('rank', sa.Integer(), nullable=True),
    sa.Column('score', sa.Float(), nullable=True),
    sa.Column('faults', sa.JSON(), nullable=False),
    sa.Column('replaced', sa.Boolean(), nullable=False),
    sa.Column('rating_before', sa.Float(), nullable=True),
    sa.Column('rating_after', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['bot_id'], ['bot.id'], ),
    sa.ForeignKeyConstraint(['match_id'], ['match.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('match_id', 'seat', name='uq_seat_match_seat')
    )
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_bot_id'), ['bot_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_seat_match_id'), ['match_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_match_id'))
        batch_op.drop_index(batch_op.f('ix_seat_bot_id'))

    op.drop_table('seat')
    with op.batch_alter_table('rating', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rating_game'))

    op.drop_table('rating')
    with op.batch_alter_table('notice', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_notice_bot_id'))

    op.drop_table('notice')
    with op.batch_alter_table('bottoken', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_bottoken_bot_id'))

    op.drop_table('bottoken')
    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_match_status'))
        batch_op.drop_index(batch_op.f('ix_match_rating_seq'))
        batch_op.drop_index(batch_op.f('ix_match_game'))

    op.drop_table('match')
    op.drop_table('gamecounter')
    with op.batch_alter_table('bot', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_bot_status'))
        batch_op.drop_index(batch_op.f('ix_bot_name'))
        batch_op.drop_index(batch_op.f('ix_bot_game'))

    op.drop_table('bot')
