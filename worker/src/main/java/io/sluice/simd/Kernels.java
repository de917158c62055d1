package io.sluice.simd;

import java.util.function.Supplier;

/**
 * Chooses the kernels once per JVM. A Vector API kernel is used when the module
 * {@code jdk.incubator.vector} is in the boot layer (the JVM was started with
 * {@code --add-modules jdk.incubator.vector}) and its class links; otherwise the scalar one.
 * System property {@code sluice.simd=scalar|panama} overrides (panama without the module is an error).
 * Each choice is logged once.
 */
public final class Kernels {
    public static final String PROPERTY = "sluice.simd";
    private static final System.Logger LOG = System.getLogger(Kernels.class.getName());

    private Kernels() {
    }

    /** The MinHash kernel for this JVM, chosen on first use. */
    public static MinhashKernel minhash() {
        return Holder.MINHASH;
    }

    /** The byte-scan kernel of the read path, chosen on first use. */
    public static ByteScanKernel byteScan() {
        return Holder.BYTE_SCAN;
    }

    /** The character classifier of the text steps, chosen on first use. */
    public static CharClassKernel charClasses() {
        return Holder.CHAR_CLASSES;
    }

    private static final class Holder {
        static final MinhashKernel MINHASH = choose("MinHash", MinhashKernel.class,
                "io.sluice.simd.PanamaMinhashKernel", ScalarMinhashKernel::new, MinhashKernel::name);
        static final ByteScanKernel BYTE_SCAN = choose("byte scan", ByteScanKernel.class,
                "io.sluice.simd.PanamaByteScanKernel", ScalarByteScanKernel::new, ByteScanKernel::name);
        static final CharClassKernel CHAR_CLASSES = choose("character class", CharClassKernel.class,
                "io.sluice.simd.PanamaCharClassKernel", ScalarCharClassKernel::new, CharClassKernel::name);
    }

    private static <K> K choose(String what, Class<K> type, String panamaClass, Supplier<K> scalar,
                                java.util.function.Function<K, String> name) {
        String wanted = System.getProperty(PROPERTY, "auto");
        K k;
        String why;
        switch (wanted) {
            case "scalar" -> {
                k = scalar.get();
                why = "requested by -D" + PROPERTY + "=scalar";
            }
            case "panama" -> {
                k = loadPanama(type, panamaClass);
                if (k == null) {
                    throw new IllegalStateException("-D" + PROPERTY + "=panama but the Vector API is not available;"
                            + " start the JVM with --add-modules jdk.incubator.vector");
                }
                why = "requested by -D" + PROPERTY + "=panama";
            }
            case "auto" -> {
                k = loadPanama(type, panamaClass);
                why = k == null ? "module jdk.incubator.vector not available" : "module jdk.incubator.vector present";
                if (k == null) {
                    k = scalar.get();
                }
            }
            default -> throw new IllegalArgumentException(
                    "-D" + PROPERTY + " must be scalar or panama, got '" + wanted + "'");
        }
        LOG.log(System.Logger.Level.DEBUG, what + " kernel: " + name.apply(k) + " (" + why + ")");
        return k;
    }

    /** The Panama kernel, or null when the module is absent or the class does not link. */
    static <K> K loadPanama(Class<K> type, String className) {
        if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
            return null;
        }
        try {
            return type.cast(Class.forName(className).getDeclaredConstructor().newInstance());
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }

    /** Names of the chosen kernels, for logs and benchmark output. */
    public static String describe() {
        return "MinHash: " + minhash().name() + ", byte scan: " + byteScan().name()
                + ", character classes: " + charClasses().name();
    }
}
