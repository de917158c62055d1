package io.sluice.io;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Writes numbers and strings the way Python's {@code json.dumps} does, so that our statistics files
 * look like datatrove's: floats as {@code repr} (shortest round-trip digits, exponent form below 1e-4
 * and from 1e16 on, e.g. {@code 1e-05}, {@code 0.25}, {@code 3.0}), integers without a fraction,
 * non-ASCII characters as lowercase {@code \\uXXXX} escapes. Also Python's {@code round(x, digits)}.
 */
public final class PyJson {
    private PyJson() {
    }

    /**
     * Python's {@code str()} of the value {@code json.loads} gives for {@code v}: True, None, 1e+20, ['a', 1],
     * {'k': None}; what datatrove's output_filename puts in a file name for a metadata key.
     */
    public static String str(Object v) {
        return v instanceof String s ? s : repr(v, new StringBuilder()).toString();
    }

    private static StringBuilder repr(Object v, StringBuilder sb) {
        switch (v) {
            case null -> sb.append("None");
            case Boolean b -> sb.append(b ? "True" : "False");
            case Double d -> sb.append(Double.isNaN(d) ? "nan" : Double.isInfinite(d) ? (d > 0 ? "inf" : "-inf") : floatRepr(d));
            case Float f -> repr(f.doubleValue(), sb);
            case String s -> stringRepr(s, sb);
            case java.util.Map<?, ?> m -> {
                sb.append('{');
                String sep = "";
                for (var e : m.entrySet()) {
                    repr(e.getKey(), sb.append(sep)).append(": ");
                    repr(e.getValue(), sb);
                    sep = ", ";
                }
                sb.append('}');
            }
            case java.util.List<?> list -> {
                sb.append('[');
                for (int i = 0; i < list.size(); i++) {
                    repr(list.get(i), sb.append(i == 0 ? "" : ", "));
                }
                sb.append(']');
            }
            default -> sb.append(v); // an integer of any size
        }
        return sb;
    }

    /**
     * Python's repr of a str: single quotes unless it holds one and no double quote; escapes for the characters
     * Python does not print (str.isprintable: controls, format characters, separators other than the space,
     * surrogates, private use, unassigned), as \\xNN, \\uNNNN or \\UNNNNNNNN.
     */
    private static void stringRepr(String s, StringBuilder sb) {
        char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        sb.append(quote);
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c == quote) {
                        sb.append('\\').append((char) c);
                    } else if (printable(c)) {
                        sb.appendCodePoint(c);
                    } else {
                        sb.append(c < 0x100 ? String.format("\\x%02x", c)
                                : c < 0x10000 ? String.format("\\u%04x", c) : String.format("\\U%08x", c));
                    }
                }
            }
        }
        sb.append(quote);
    }

    private static boolean printable(int c) {
        return c == ' ' || switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED,
                 Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SPACE_SEPARATOR -> false;
            default -> true;
        };
    }

    /** Python {@code repr(float(d))}; json.dumps spells the non-finite ones NaN, Infinity, -Infinity. */
    public static String floatRepr(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        if (d == 0) {
            return (1 / d < 0) ? "-0.0" : "0.0";
        }
        StringBuilder sb = new StringBuilder(24);
        if (d < 0) {
            sb.append('-');
            d = -d;
        }
        // Since JDK 19 Double.toString gives the shortest decimal that rounds back to d, as Python's repr.
        String s = Double.toString(d);
        int e = s.indexOf('E');
        String mantissa = e < 0 ? s : s.substring(0, e);
        int exp = e < 0 ? 0 : Integer.parseInt(s.substring(e + 1));
        int dot = mantissa.indexOf('.');
        String digits = mantissa.substring(0, dot) + mantissa.substring(dot + 1);
        int point = dot + exp; // decimal point position relative to the start of digits
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
            lead++;
        }
        digits = digits.substring(lead);
        point -= lead;
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        digits = digits.substring(0, end);
        if (digits.length() == 2) {
            // Java writes two digits where one would do if a two-digit number is nearer (4.9E-324, Python's
            // 5e-324; only the widely spaced subnormals): the one digit, nearest first, if it reads back as d
            int first = digits.charAt(0) - '0';
            int[] oneDigit = digits.charAt(1) >= '5' ? new int[] {first + 1, first} : new int[] {first, first + 1};
            for (int c : oneDigit) {
                int p = c == 10 ? point + 1 : point;
                int digit = c == 10 ? 1 : c;
                if (digit > 0 && Double.parseDouble(digit + "e" + (p - 1)) == d) {
                    digits = String.valueOf(digit);
                    point = p;
                    break;
                }
            }
        }
        if (point > -4 && point <= 16) {
            if (point <= 0) {
                sb.append("0.").append("0".repeat(-point)).append(digits);
            } else if (point >= digits.length()) {
                sb.append(digits).append("0".repeat(point - digits.length())).append(".0");
            } else {
                sb.append(digits, 0, point).append('.').append(digits, point, digits.length());
            }
        } else {
            sb.append(digits.charAt(0));
            if (digits.length() > 1) {
                sb.append('.').append(digits, 1, digits.length());
            }
            int x = point - 1;
            sb.append(x < 0 ? "e-" : "e+");
            if (Math.abs(x) < 10) {
                sb.append('0');
            }
            sb.append(Math.abs(x));
        }
        return sb.toString();
    }

    /** A number as Python prints it: an integer when {@code integral}, else a float repr. */
    public static String number(double d, boolean integral) {
        if (integral && Math.abs(d) < 0x1p63) {
            return Long.toString((long) d);
        }
        return floatRepr(d);
    }

    /**
     * Python's {@code round(x, digits)} for a float: the double nearest to x rounded half-to-even at
     * the given decimal digit, judged on x's exact binary value.
     */
    public static double round(double x, int digits) {
        if (Double.isNaN(x) || Double.isInfinite(x) || digits > 323) {
            return x; // CPython: past 323 digits no double changes
        }
        if (digits < -308) {
            return 0.0 * x; // CPython: every double rounds to a zero of its sign
        }
        if (digits >= 0 && digits <= 8) {
            double scale = POW10[digits];
            double scaled = x * scale;
            if (Math.abs(scaled) < 1e15) {
                double r = Math.rint(scaled);
                // Only a value near a tie could be misjudged by the rounding error of x * scale.
                if (Math.abs(Math.abs(scaled - r) - 0.5) > 1e-6) {
                    // r is an exact integer, so r / scale is the double nearest to the decimal r * 10^-digits.
                    return r / scale;
                }
            }
        }
        return new BigDecimal(x).setScale(digits, RoundingMode.HALF_EVEN).doubleValue();
    }

    private static final double[] POW10 = {1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};

    /** Appends {@code s} as a JSON string literal with json.dumps' default ensure_ascii escaping. */
    public static void appendString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20 || c > 0x7E) {
                        sb.append("\\u");
                        String hex = Integer.toHexString(c);
                        sb.append("0".repeat(4 - hex.length())).append(hex);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
