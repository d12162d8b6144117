"""OAuth2 and OpenID Connect sign-in: the token source and bearer (client.py), the issuer's endpoints and discovery
(endpoints.py), the flows that need the person (flows.py), the token requests (grants.py), their errors
(errors.py), the issuer's requests on the wire tap (trace.py), remembered tokens (token_store.py), and the light
types other layers pass along without running a flow (types.py: Interaction, DevicePrompt, TokenStore).
"""
