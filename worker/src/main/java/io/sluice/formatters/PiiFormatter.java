package io.sluice.formatters;

import io.sluice.job.StepArgs;
import io.sluice.pipeline.Formatter;
import java.util.List;
import java.util.function.Predicate;

/**
 * Step {@code pii_formatter} (datatrove's {@code PIIFormatter}): replaces e-mail addresses and IP addresses in
 * the text. Keys: {@code remove_emails} (true), {@code remove_ips} (true), {@code only_remove_public_ips}
 * (true), {@code email_replacement} and {@code ip_replacement} (a string, or a list used in turn: each match
 * takes the next, the turn running on from document to document through the rank, as in datatrove's task).
 *
 * <p>The patterns are datatrove's, matched by hand as Python's {@code re} matches them ({@link EmailAddresses},
 * {@link IpAddresses}): an address is matched in lower case only, as
 * datatrove's pattern has no ignore-case flag ("Jane@Example.com" stays), and an IP address only when Python's
 * {@code ipaddress} takes it: no octet with a leading zero ("10.01.2.3" stays) and, with
 * {@code only_remove_public_ips}, one that is global (not private, loopback, link-local, documentation,
 * reserved, shared 100.64.0.0/10 and the like, as CPython 3.13 lists them; 3.11 counts 192.0.0.8-255 but
 * 192.0.0.170/171 as global). The replacements are counted ({@code emails_replaced}, {@code ips_replaced}).
 */
public final class PiiFormatter extends Formatter {
    static final List<String> EMAIL_REPLACEMENTS = List.of("email@example.com", "firstname.lastname@example.org");
    // datatrove's: addresses that did not answer when its list was made
    static final List<String> IP_REPLACEMENTS = List.of("22.214.171.124", "126.96.36.199", "188.8.131.52",
            "184.108.40.206", "220.127.116.11", "18.104.22.168");

    private final Replacer emails;
    private final Replacer ips;

    public PiiFormatter(StepArgs args) {
        boolean removeEmails = args.bool("remove_emails", true);
        boolean removeIps = args.bool("remove_ips", true);
        boolean publicOnly = args.bool("only_remove_public_ips", true);
        emails = removeEmails ? new Replacer(EmailAddresses::find, replacements(args, "email_replacement", EMAIL_REPLACEMENTS),
                a -> true, "emails_replaced") : null;
        ips = removeIps ? new Replacer(IpAddresses::find, replacements(args, "ip_replacement",
                IP_REPLACEMENTS), publicOnly ? IpAddresses::isGlobal : IpAddresses::isValid, "ips_replaced") : null;
    }

    private static String[] replacements(StepArgs args, String key, List<String> dflt) {
        List<String> r = args.strings(key, dflt);
        if (r.isEmpty()) {
            throw args.error(key, "is empty: give a replacement (a string, or a list to use in turn)");
        }
        return r.toArray(String[]::new);
    }

    @Override
    protected String format(String text) {
        if (emails != null) {
            text = emails.replace(text);
        }
        if (ips != null) {
            text = ips.replace(text);
        }
        return text;
    }

    /** Finds the next match at or after a position: {@code start << 32 | end}, or -1. */
    private interface Finder {
        long find(String text, int from);
    }

    /** One kind of address replaced in turn; {@code accept} false leaves a match as it is. */
    private final class Replacer {
        private final Finder finder;
        private final String[] replacements;
        private final Predicate<String> accept;
        private final String counter;
        private int next;

        Replacer(Finder finder, String[] replacements, Predicate<String> accept, String counter) {
            this.finder = finder;
            this.replacements = replacements;
            this.accept = accept;
            this.counter = counter;
        }

        String replace(String text) {
            StringBuilder out = null;
            int copied = 0;
            for (long found = finder.find(text, 0); found >= 0; found = finder.find(text, (int) found)) {
                int start = (int) (found >>> 32);
                int end = (int) found;
                if (!accept.test(text.substring(start, end))) {
                    continue;
                }
                if (out == null) {
                    out = new StringBuilder(text.length());
                }
                out.append(text, copied, start).append(replacements[next]);
                next = (next + 1) % replacements.length;
                copied = end;
                ctx.stats().increment(counter);
            }
            return out == null ? text : out.append(text, copied, text.length()).toString();
        }
    }
}
