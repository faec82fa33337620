"""Score and ModerationLog (DESIGN §8): to come."""
