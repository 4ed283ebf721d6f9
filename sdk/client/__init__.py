"""The bot author's side of a hosted ladder: log in, submit bots, follow their validation, manage
versions, tokens and challenges. Needs only grpcio and protobuf (it ships in the SDK's wheel)."""
