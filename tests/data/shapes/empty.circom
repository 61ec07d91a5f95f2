pragma circom 2.0.0;

// Shape (h), most degenerate: one private input that no constraint uses, so circom's default
// simplification (--O1) removes it: nWires = 1 (wire 0 only) while the header still says
// nPrvIn = 1, no constraint, no public signal (domain 2^1, empty C section).
template Empty() {
    signal input x;
}

component main = Empty();
