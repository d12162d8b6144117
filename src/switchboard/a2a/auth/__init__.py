"""Authentication: what the tool presents to an agent and whom it believes.

credentials.py reads secrets from the environment and attaches them as the card's security scheme says, only to
the agent's own origin; oauth/ obtains and renews OAuth2 / OpenID Connect tokens; challenge.py and
sign_in_offer.py read an agent's refusal (WWW-Authenticate, auth-required) into what the person can do next.
Nothing here imports textual; the OAuth client (authlib) is imported only when a token is needed.
"""
