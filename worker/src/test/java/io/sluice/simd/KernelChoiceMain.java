package io.sluice.simd;

/** Prints the MinHash kernel this JVM chose and one result of it; run by {@link MinhashKernelTest} in a child JVM. */
public final class KernelChoiceMain {
    private KernelChoiceMain() {
    }

    public static void main(String[] args) {
        long[] out = new long[3];
        Kernels.minhash().minHash(new long[] {1, 2, 3}, 3, new long[] {5, 7, 11}, new long[] {13, 17, 19}, out);
        System.out.println(Kernels.minhash().name() + " " + out[0] + " " + out[1] + " " + out[2]);
    }
}
