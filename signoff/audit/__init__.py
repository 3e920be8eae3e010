"""`signoff audit`: re-judge past merges and compare with the verdicts published then."""
