"""Earlier view builders kept as references: the faster ones must give exactly their views."""
