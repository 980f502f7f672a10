"""Errors whose message is written for the player who caused them."""


class GameError(Exception):
    """A refused action. The message is shown to the player; the state is unchanged."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotYourTurn(GameError):
    pass


class NotAPlayer(GameError):
    pass


class WrongPhase(GameError):
    pass


class InvalidValue(GameError):
    pass
