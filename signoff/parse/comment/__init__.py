"""A sign-off comment and the checklist page it answers: opener, task items, links, phrasing."""
