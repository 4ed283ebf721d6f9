"""Accounts: people with API keys, invitations, bots owned by an account with versions, cancellable challenges.

Revision ID: 0005_accounts
Revises: 0004_live_chunks
Create Date: 2026-11-27 00:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision = '0005_accounts'
down_revision = '0004_live_chunks'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('account',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('status', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('suspended_reason', sqlmodel.sql.sqltypes.AutoString(length=2000), nullable=True),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name')
    )
    op.create_table('apikey',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('account_id', sa.Integer(), nullable=False),
    sa.Column('key_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('hint', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('label', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('revoked', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['account_id'], ['account.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key_hash')
    )
    op.create_index(op.f('ix_apikey_account_id'), 'apikey', ['account_id'], unique=False)
    op.create_table('invite',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('code_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('uses_left', sa.Integer(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('code_hash')
    )
    with op.batch_alter_table('bot') as batch:
        batch.add_column(sa.Column('account_id', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('family', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=False, server_default=''))
        batch.create_index(batch.f('ix_bot_account_id'), ['account_id'], unique=False)
        batch.create_index(batch.f('ix_bot_family'), ['family'], unique=False)
        batch.create_foreign_key('fk_bot_account_id', 'account', ['account_id'], ['id'])
    with op.batch_alter_table('challenge') as batch:
        batch.add_column(sa.Column('account_id', sa.Integer(), nullable=True))
        batch.add_column(sa.Column('cancelled', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column('seed', sa.BigInteger(), nullable=True))
        batch.create_index(batch.f('ix_challenge_account_id'), ['account_id'], unique=False)
        batch.create_foreign_key('fk_challenge_account_id', 'account', ['account_id'], ['id'])


def downgrade() -> None:
    with op.batch_alter_table('challenge') as batch:
        batch.drop_constraint('fk_challenge_account_id', type_='foreignkey')
        batch.drop_index(batch.f('ix_challenge_account_id'))
        batch.drop_column('seed')
        batch.drop_column('cancelled')
        batch.drop_column('account_id')
    with op.batch_alter_table('bot') as batch:
        batch.drop_constraint('fk_bot_account_id', type_='foreignkey')
        batch.drop_index(batch.f('ix_bot_family'))
        batch.drop_index(batch.f('ix_bot_account_id'))
        batch.drop_column('family')
        batch.drop_column('account_id')
    op.drop_table('invite')
    op.drop_index(op.f('ix_apikey_account_id'), table_name='apikey')
    op.drop_table('apikey')
    op.drop_table('account')
