"""The site's HTTP and socket plumbing, below every app that uses it: the one error shape
(``errors``), JSON rendering (``renderer``), throttles (``throttles``), the client's address
(``addresses``), sends to Channels groups and the push-only consumer (``groups``), the
hand-written statements on the hot path (``rows``) and the shapes every router shares
(``schemas``). It knows no game, player or board."""
