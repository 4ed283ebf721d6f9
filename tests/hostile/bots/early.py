"""Answers before being asked: a decision for a request the referee has not sent yet."""

from hostile import Stream, play, say

stream = Stream()
say("early: answering request 1 before any request")
stream.answer(1, "stake:1")
play(stream=stream)
