"""The Grand Tournament 2020 mission pack (9th edition): its missions, secondary objectives and caps, and the D33
mission roll."""
