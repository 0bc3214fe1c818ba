"""The guide for the people who run the night."""
