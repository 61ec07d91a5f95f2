pragma circom 2.0.0;

// Shape (h), degenerate: no constraint at all, one public input (domain 2^1; only the input
// rows snarkjs adds for wire 0 and the public input are in the QAP).
template NoConstraint() {
    signal input x;
}

component main {public [x]} = NoConstraint();
