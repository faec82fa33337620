"""Player, Game, GameAction, DailyDeal (DESIGN §4): to come."""
