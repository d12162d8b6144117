"""Trust: whom the tool believes. A client certificate for mutual TLS (client_tls.py), an agent card's signature
(card_signature.py: JWS over the RFC 8785 canonical card) checked against keys the person pinned or the card's
own key set (card_keys.py). PyJWT and rfc8785 are imported only when a card is signed.
"""
