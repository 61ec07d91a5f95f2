pragma circom 2.0.0;

// Shape (a): no public signals at all: no outputs, every input private (nPublic = 0, so the
// verification key has a single IC point and the public input list is empty).
template NoPublic() {
    signal input a;
    signal input b;
    signal input c;
    signal ab;
    signal abc;
    signal sq;
    ab <== a * b;
    abc <== ab * c;
    sq <== abc * abc;
    ab * c === abc;
    (c - 4) * (b - 11) === 0;
}

component main = NoPublic();
