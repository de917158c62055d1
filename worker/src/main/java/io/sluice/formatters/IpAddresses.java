package io.sluice.formatters;

/**
 * Dotted IPv4 addresses as Python's {@code ipaddress} judges them, for {@link PiiFormatter}: which strings it
 * takes at all, and which of those are global ({@code is_global}).
 */
final class IpAddresses {
    /**
     * CPython 3.13's private IPv4 networks (address, prefix length; 192.0.0.170/31 and 255.255.255.255 lie in
     * larger ones), and the shared 100.64.0.0/10, which {@code is_global} also leaves out.
     */
    private static final int[][] NOT_GLOBAL = {
            {ip(0, 0, 0, 0), 8}, {ip(10, 0, 0, 0), 8}, {ip(127, 0, 0, 0), 8}, {ip(169, 254, 0, 0), 16},
            {ip(172, 16, 0, 0), 12}, {ip(192, 0, 0, 0), 24}, {ip(192, 0, 2, 0), 24}, {ip(192, 168, 0, 0), 16},
            {ip(198, 18, 0, 0), 15}, {ip(198, 51, 100, 0), 24}, {ip(203, 0, 113, 0), 24}, {ip(240, 0, 0, 0), 4},
            {ip(100, 64, 0, 0), 10}};
    /** Inside 192.0.0.0/24, but global (port control and NAT64 discovery anycast). */
    private static final int[] GLOBAL_EXCEPTIONS = {ip(192, 0, 0, 9), ip(192, 0, 0, 10)};

    private IpAddresses() {
    }

    private static int ip(int a, int b, int c, int d) {
        return a << 24 | b << 16 | c << 8 | d;
    }

    /**
     * The next match of datatrove's IP pattern, {@code (?:OCTET\\.){3}OCTET} with
     * {@code OCTET = 25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?}, in {@code text} at or after {@code from}, as Python's
     * {@code re} finds it: {@code start << 32 | end}, or -1. By hand, as the regex engine tried the pattern at
     * every position of every text (18 MB/s). The last octet is the first of the alternatives that matches, as
     * the engine takes it.
     */
    static long find(String text, int from) {
        int n = text.length();
        for (int i = from; i + 7 <= n; i++) { // "1.2.3.4" is the shortest
            if (isDigit(text.charAt(i))) {
                int end = matchAt(text, i, n);
                if (end > 0) {
                    return (long) i << 32 | end;
                }
            }
        }
        return -1;
    }

    private static int matchAt(String s, int start, int n) {
        int p = afterDottedOctets(s, start);
        if (p < 0 || p >= n || !isDigit(s.charAt(p))) {
            return -1;
        }
        char c0 = s.charAt(p);
        char c1 = p + 1 < n ? s.charAt(p + 1) : 0;
        char c2 = p + 2 < n ? s.charAt(p + 2) : 0;
        if (c0 == '2' && ((c1 == '5' && c2 >= '0' && c2 <= '5') || (c1 >= '0' && c1 <= '4' && isDigit(c2)))) {
            return p + 3; // 25[0-5], 2[0-4][0-9]
        }
        if ((c0 == '0' || c0 == '1') && isDigit(c1)) {
            return p + (isDigit(c2) ? 3 : 2); // [01][0-9][0-9]?
        }
        return p + (isDigit(c1) ? 2 : 1); // [0-9][0-9]?
    }

    /**
     * Where three octets, each followed by its '.', end from {@code p} ({@code (?:OCTET\\.){3}}), or -1. Each is the
     * whole run of digits up to its '.', as the '.' must follow: a shorter alternative of the pattern never fits.
     */
    static int afterDottedOctets(String s, int p) {
        for (int octet = 0; octet < 3; octet++) {
            int digits = octetDigits(s, p);
            if (digits < 0 || p + digits >= s.length() || s.charAt(p + digits) != '.') {
                return -1;
            }
            p += digits + 1;
        }
        return p;
    }

    /** The length of the run of digits at {@code q} when it is an octet (one or two digits, or three up to 255), else -1. */
    static int octetDigits(String s, int q) {
        int run = 0;
        while (run < 4 && q + run < s.length() && isDigit(s.charAt(q + run))) {
            run++;
        }
        if (run == 0 || run == 4) {
            return -1;
        }
        if (run == 3 && (s.charAt(q) - '0') * 100 + (s.charAt(q + 1) - '0') * 10 + (s.charAt(q + 2) - '0') > 255) {
            return -1;
        }
        return run;
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The address of four dotted decimal octets of 0-255, or -1 when Python would not take it (a leading zero). */
    private static long parse(String s) {
        long address = 0;
        int octets = 0;
        for (int i = 0; i <= s.length(); ) {
            int end = s.indexOf('.', i);
            if (end < 0) {
                end = s.length();
            }
            if (end == i || end - i > 3 || (end - i > 1 && s.charAt(i) == '0')) {
                return -1;
            }
            int value = 0;
            for (int k = i; k < end; k++) {
                char c = s.charAt(k);
                if (c < '0' || c > '9') {
                    return -1;
                }
                value = value * 10 + (c - '0');
            }
            if (value > 255) {
                return -1;
            }
            address = address << 8 | value;
            octets++;
            i = end + 1;
        }
        return octets == 4 ? address : -1;
    }

    /** {@code ipaddress.ip_address(s)} succeeds. */
    static boolean isValid(String s) {
        return parse(s) >= 0;
    }

    /** {@code ipaddress.ip_address(s).is_global}. */
    static boolean isGlobal(String s) {
        long parsed = parse(s);
        if (parsed < 0) {
            return false;
        }
        int address = (int) parsed;
        for (int exception : GLOBAL_EXCEPTIONS) {
            if (address == exception) {
                return true;
            }
        }
        for (int[] net : NOT_GLOBAL) {
            int mask = -1 << (32 - net[1]);
            if ((address & mask) == net[0]) {
                return false;
            }
        }
        return true;
    }
}
