package io.sluice.simd;

/**
 * Chooses the kernels once per JVM. The Vector API kernel is used when the module
 * {@code jdk.incubator.vector} is in the boot layer (the JVM was started with
 * {@code --add-modules jdk.incubator.vector}) and its class links; otherwise the scalar one.
 * System property {@code sluice.simd=scalar|panama} overrides (panama without the module is an error).
 * The choice is logged once.
 */
public final class Kernels {
    public static final String PROPERTY = "sluice.simd";
    private static final String PANAMA_CLASS = "io.sluice.simd.PanamaMinhashKernel";
    private static final System.Logger LOG = System.getLogger(Kernels.class.getName());

    private Kernels() {
    }

    /** The MinHash kernel for this JVM, chosen on first use. */
    public static MinhashKernel minhash() {
        return Holder.MINHASH;
    }

    private static final class Holder {
        static final MinhashKernel MINHASH = chooseMinhash();
    }

    private static MinhashKernel chooseMinhash() {
        String wanted = System.getProperty(PROPERTY, "auto");
        MinhashKernel k;
        String why;
        switch (wanted) {
            case "scalar" -> {
                k = new ScalarMinhashKernel();
                why = "requested by -D" + PROPERTY + "=scalar";
            }
            case "panama" -> {
                k = loadPanama();
                if (k == null) {
                    throw new IllegalStateException("-D" + PROPERTY + "=panama but the Vector API is not available;"
                            + " start the JVM with --add-modules jdk.incubator.vector");
                }
                why = "requested by -D" + PROPERTY + "=panama";
            }
            case "auto" -> {
                k = loadPanama();
                why = k == null ? "module jdk.incubator.vector not available" : "module jdk.incubator.vector present";
                if (k == null) {
                    k = new ScalarMinhashKernel();
                }
            }
            default -> throw new IllegalArgumentException(
                    "-D" + PROPERTY + " must be scalar or panama, got '" + wanted + "'");
        }
        LOG.log(System.Logger.Level.INFO, "MinHash kernel: " + k.name() + " (" + why + ")");
        return k;
    }

    /** The Panama kernel, or null when the module is absent or the class does not link. */
    static MinhashKernel loadPanama() {
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return null;
        }
        try {
            Class<?> c = Class.forName(PANAMA_CLASS);
            return (MinhashKernel) c.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }
}
