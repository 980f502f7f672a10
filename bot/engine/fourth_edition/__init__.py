"""The 4th edition Standard Missions (rules SRD): the D6 mission table, the D3 mission level chart and the roll-offs
a mission needs, rolled from a public seed so anyone can re-derive them."""
