pragma circom 2.0.0;

// Shape (b): only public inputs (no outputs, no private inputs), 40 of them, and just two
// constraints: IC has 41 points and most public wires appear in no constraint of the circuit.
template ManyPublic(n) {
    signal input x[n];
    x[0] * x[1] === x[2];
    x[3] * x[3] === x[4];
}

component main {public [x]} = ManyPublic(40);
