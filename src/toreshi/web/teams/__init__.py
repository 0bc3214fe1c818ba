"""Team competitions' pages."""
