"""Generated protocol code (scripts/gen-proto); do not edit."""
