"""palettes: one chat palette per table and unit (issue #9 §6)

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "palettes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("unit", sa.String(120), nullable=False),
        sa.Column("text", sa.Text(), nullable=False, server_default=""),
        sa.Column("author", sa.String(120), nullable=False, server_default=""),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.UniqueConstraint("table_id", "unit", name="uq_palettes_table_unit"),
    )


def downgrade() -> None:
    op.drop_table("palettes")
