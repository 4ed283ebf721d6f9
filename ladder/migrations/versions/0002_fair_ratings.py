"""Fair results: match kinds (rated, validation, challenge), unrated reasons, stderr tails, challenges.

Revision ID: 0002_fair_ratings
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0002_fair_ratings'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('challenge',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('bot_id', sa.Integer(), nullable=False),
    sa.Column('opponent_id', sa.Integer(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('requested_by', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['bot_id'], ['bot.id'], ),
    sa.ForeignKeyConstraint(['opponent_id'], ['bot.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('challenge', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_challenge_bot_id'), ['bot_id'], unique=False)

    with op.batch_alter_table('bot', schema=None) as batch_op:
        batch_op.add_column(sa.Column('validated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))

    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False, server_default='rated'))
        batch_op.add_column(sa.Column('unrated_reason', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=True))
        batch_op.add_column(sa.Column('challenge_id', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_match_kind'), ['kind'], unique=False)
        batch_op.create_index(batch_op.f('ix_match_challenge_id'), ['challenge_id'], unique=False)
        batch_op.create_foreign_key('fk_match_challenge_id', 'challenge', ['challenge_id'], ['id'])

    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.add_column(sa.Column('exit_code', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('stderr_tail', sqlmodel.sql.sqltypes.AutoString(length=4000), nullable=False, server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_column('stderr_tail')
        batch_op.drop_column('exit_code')

    with op.batch_alter_table('match', schema=None) as batch_op:
        batch_op.drop_constraint('fk_match_challenge_id', type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_match_challenge_id'))
        batch_op.drop_index(batch_op.f('ix_match_kind'))
        batch_op.drop_column('challenge_id')
        batch_op.drop_column('unrated_reason')
        batch_op.drop_column('kind')

    with op.batch_alter_table('bot', schema=None) as batch_op:
        batch_op.drop_column('validated_at')

    with op.batch_alter_table('challenge', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_challenge_bot_id'))

    op.drop_table('challenge')
