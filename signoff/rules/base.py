"""The base of every profile model: frozen, and a key the model does not know is an error."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints


class Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _cites_a_decision(value: str) -> str:
    if "https://" not in value:
        raise ValueError("decision must cite the maintainer decision it rests on (a URL)")
    return value.strip()


# What a profile entry that trusts something rests on: the maintainer decision, cited by URL.
Decision = Annotated[str, StringConstraints(min_length=1), AfterValidator(_cites_a_decision)]
