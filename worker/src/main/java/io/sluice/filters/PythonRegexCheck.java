package io.sluice.filters;

import static io.sluice.text.PyText.len;

import io.sluice.text.PyText;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What Python 3.11's {@code re.compile} says of a str pattern, as datatrove's RegexFilter compiles it: the checks
 * of {@code re._parser} and the look-behind widths {@code re._compiler} checks, in their order and with their
 * messages ("bad escape \z at position 3", "look-behind requires fixed-width pattern"), so that a job datatrove
 * would refuse at start-up is refused here too, not run with Java's reading of the pattern. Only the checks:
 * nothing is built but the widths a look-behind needs. Python counts positions in code points, and so does this.
 * Checked against python3.11 on 300,000 patterns a round (random, mutated and hand-picked): none it refuses
 * passes here, none it takes is refused here, and the messages are its own but for {@code \N{...}} names.
 *
 * <p>Where it is not Python: a character name ({@code \N{...}}) is looked up in Java's table, which is not
 * Python's (Python 3.11 has Unicode 14 and takes aliases such as "LINE FEED"), so a name Java does not know is
 * told as one Sluice does not run unless no name could be spelt so; a name added in Unicode 15 or later is taken.
 * Groups nested more than 495 deep are refused as Python's recursion limit refuses them from the top of a
 * script; datatrove calls re.compile from deeper in its stack, so it gives up a few levels sooner.
 */
final class PythonRegexCheck {
    /**
     * @param refusal what Python says of a pattern it refuses ("bad escape \z at position 3"), else null
     * @param unsupported for a pattern Python takes, a construct of it that Sluice does not run, else null
     */
    record Result(String refusal, String unsupported) {
    }

    private static final long MAXREPEAT = 4294967295L; // _sre.MAXREPEAT
    private static final long MAXGROUPS = 1073741823L; // _sre.MAXGROUPS
    private static final long MAXCODE = 4294967295L; // (1 << 32) - 1: a look-behind's width must fit in a code word
    private static final long MAXWIDTH = Long.MAX_VALUE; // Python's is 1 << 64; widths saturate here
    private static final int RECURSION_LIMIT = 992; // nested _parse_sub/_parse calls a top-level re.compile survives
    private static final int VERBOSE = 64;
    private static final int ASCII = 256;
    private static final int UNICODE = 32;
    private static final int LOCALE = 4;
    private static final int TEMPLATE = 1;
    private static final int TYPE_FLAGS = ASCII | LOCALE | UNICODE;
    private static final Map<String, Integer> FLAGS = Map.of("a", ASCII, "i", 2, "L", LOCALE, "m", 8, "s", 16, "x", VERBOSE,
            "t", TEMPLATE, "u", UNICODE);
    private static final Map<String, Integer> ESCAPES = Map.of("\\a", 7, "\\b", 8, "\\f", 12, "\\n", 10, "\\r", 13,
            "\\t", 9, "\\v", 11, "\\\\", 92);
    private static final String CLASS_CATEGORIES = "dDsSwW";
    private static final String AT_CATEGORIES = "AbBZ";
    private static final String SPECIAL_CHARS = ".\\[{()*+?^$|";
    private static final String WHITESPACE = " \t\n\r\u000b\f";
    private static final String OCTDIGITS = "01234567";
    private static final String DIGITS = "0123456789";
    private static final String HEXDIGITS = "0123456789abcdefABCDEF";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]+([ -][A-Za-z0-9]+)*"); // as Unicode spells names

    /** A refusal, told as Python tells it. */
    private static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** What the repeat and group checks need of the last item parsed: its kind and width. */
    private record Item(Kind kind, long lo, long hi) {
    }

    private enum Kind { AT, REPEAT, OTHER }

    private static final Item UNIT = new Item(Kind.OTHER, 1, 1);
    private static final Item AT = new Item(Kind.AT, 0, 0);
    private static final Item ASSERTION = new Item(Kind.OTHER, 0, 0);
    // what group() gives for what adds no item: global flags, which may turn on (?x), and a comment
    private static final Item GLOBAL_FLAGS = new Item(Kind.OTHER, 0, 0);
    private static final Item COMMENT = new Item(Kind.OTHER, 0, 0);

    private final String pattern;
    private final int[] cps;
    // the tokenizer: the next token (a code point, or a backslash and one), and where the one after it starts
    private int index;
    private String next;
    // the parser's state
    private int flags;
    private int depth;
    private final Map<String, Long> groupdict = new HashMap<>();
    private final List<long[]> groupwidths = new ArrayList<>(List.of(new long[0])); // null while a group is open
    private Long lookbehindgroups;
    private final Map<BigInteger, Integer> grouprefpos = new LinkedHashMap<>();
    private String compileError; // the first look-behind re._compiler refuses, told once parsing is done
    private int compileErrorAt = Integer.MAX_VALUE;
    private String unsupported;

    private PythonRegexCheck(String pattern) {
        this.pattern = pattern;
        this.cps = pattern.codePoints().toArray();
    }

    /** Python's verdict on {@code regex}. */
    static Result check(String regex) {
        PythonRegexCheck p = new PythonRegexCheck(regex);
        try {
            p.parse();
        } catch (Refused e) {
            return new Result(e.getMessage(), null);
        } catch (StackOverflowError e) { // conditional groups nested nearly a thousand deep, which Python takes
            return new Result(null, "the pattern nests its groups too deeply to be read here");
        }
        return new Result(null, p.unsupported);
    }

    /** re._parser.parse, then the look-behinds re._compiler refuses. */
    private void parse() {
        advance();
        parseSub(false, true);
        if ((flags & ASCII) != 0 && (flags & UNICODE) != 0) {
            throw new Refused("ASCII and UNICODE flags are incompatible"); // fix_flags' ValueError
        }
        if (next != null) {
            throw error("unbalanced parenthesis", 0);
        }
        for (Map.Entry<BigInteger, Integer> ref : grouprefpos.entrySet()) {
            if (ref.getKey().compareTo(BigInteger.valueOf(groups())) >= 0) {
                throw new Refused(at("invalid group reference " + ref.getKey(), ref.getValue()));
            }
        }
        if (compileError != null) {
            throw new Refused(compileError);
        }
    }

    // ---- the tokenizer (re._parser.Tokenizer) ----

    private void advance() {
        int i = index;
        if (i >= cps.length) {
            next = null;
            return;
        }
        StringBuilder token = new StringBuilder().appendCodePoint(cps[i]);
        if (cps[i] == '\\') {
            i++;
            if (i >= cps.length) {
                throw new Refused(at("bad escape (end of pattern)", cps.length - 1));
            }
            token.appendCodePoint(cps[i]);
        }
        index = i + 1;
        next = token.toString();
    }

    private boolean match(String token) {
        if (token.equals(next)) {
            advance();
            return true;
        }
        return false;
    }

    private String get() {
        String token = next;
        advance();
        return token;
    }

    private String getWhile(int n, String charset) {
        StringBuilder result = new StringBuilder();
        for (int k = 0; k < n && next != null && next.length() == 1 && charset.indexOf(next.charAt(0)) >= 0; k++) {
            result.append(get());
        }
        return result.toString();
    }

    private String getUntil(String terminator, String name) {
        StringBuilder result = new StringBuilder();
        while (true) {
            String c = get();
            if (c == null) {
                throw result.isEmpty() ? error("missing " + name, 0)
                        : error("missing " + terminator + ", unterminated name", len(result.toString()));
            }
            if (c.equals(terminator)) {
                if (result.isEmpty()) {
                    throw error("missing " + name, 1);
                }
                return result.toString();
            }
            result.append(c);
        }
    }

    private int tell() {
        return index - (next == null ? 0 : len(next));
    }

    private void seek(int to) {
        index = to;
        advance();
    }

    private Refused error(String msg, int offset) {
        return new Refused(at(msg, tell() - offset));
    }

    /** re.error's message: "msg at position n", with the line and column when the pattern has several lines. */
    private String at(String msg, int pos) {
        String told = msg + " at position " + pos;
        if (pattern.indexOf('\n') < 0) {
            return told;
        }
        int line = 1;
        int lastNewline = -1;
        for (int k = 0; k < pos; k++) {
            if (cps[k] == '\n') {
                line++;
                lastNewline = k;
            }
        }
        return told + " (line " + line + ", column " + (pos - lastNewline) + ")";
    }

    // ---- the parser's state (re._parser.State) ----

    private long groups() {
        return groupwidths.size();
    }

    private long openGroup(String name) {
        long gid = groups();
        groupwidths.add(null);
        if (name != null) {
            Long was = groupdict.putIfAbsent(name, gid);
            if (was != null) {
                throw error("redefinition of group name " + repr(name) + " as group " + gid + "; was group " + was,
                        len(name) + 1);
            }
        }
        return gid;
    }

    private boolean checkGroup(long gid) {
        return gid < groups() && groupwidths.get((int) gid) != null;
    }

    /** A reference, from {@code at} (-1: a conditional group's), to group {@code gid}, checked as in a look-behind. */
    private void checkLookbehindGroup(long gid, int at) {
        if (lookbehindgroups != null) {
            if (!checkGroup(gid)) {
                throw error("cannot refer to an open group", 0);
            }
            if (gid >= lookbehindgroups) {
                throw error("cannot refer to group defined in the same lookbehind subpattern", 0);
            }
            if (at >= 0) {
                note(at, "the group reference at position %d, in a look-behind, is not supported: Java's regex engine"
                        + " cannot tell its width (Python's re takes it)");
            }
        }
    }

    private void checkGroupName(String name, int offset) {
        if (!isIdentifier(name)) {
            throw error("bad character in group name " + repr(name), len(name) + offset);
        }
    }

    /** Notes the first construct Python takes that Sluice does not run: {@code what}, with %d for its position. */
    private void note(int pos, String what) {
        if (unsupported == null) {
            unsupported = String.format(what, pos);
        }
    }

    // ---- the parser (re._parser._parse_sub, _parse, _escape, _class_escape, _parse_flags) ----

    /** An alternation; its width. */
    private long[] parseSub(boolean verbose, boolean top) {
        enter();
        long lo = MAXWIDTH;
        long hi = 0;
        boolean first = top;
        while (true) {
            long[] w = parseSequence(verbose, first);
            lo = Math.min(lo, w[0]);
            hi = Math.max(hi, w[1]);
            first = false;
            if (!match("|")) {
                break;
            }
            if (top) {
                verbose = (flags & VERBOSE) != 0;
            }
        }
        depth--;
        return new long[] {lo, hi};
    }

    private void enter() {
        if (++depth > RECURSION_LIMIT) {
            throw new Refused("maximum recursion depth exceeded (Python's re gives up on groups nested this deep)");
        }
    }

    /** A sequence of items up to '|' or ')'; its width. */
    private long[] parseSequence(boolean verbose, boolean first) {
        enter();
        List<Item> items = new ArrayList<>();
        while (true) {
            String th = next;
            if (th == null || th.equals("|") || th.equals(")")) {
                break;
            }
            get();
            if (verbose && th.length() == 1 && WHITESPACE.indexOf(th.charAt(0)) >= 0) {
                continue;
            }
            if (verbose && th.equals("#")) {
                do {
                    th = get();
                } while (th != null && !th.equals("\n"));
                continue;
            }
            char c = th.charAt(0);
            if (c == '\\') {
                items.add(escape(th));
            } else if (th.length() != 1 || SPECIAL_CHARS.indexOf(c) < 0) {
                items.add(UNIT);
            } else if (c == '[') {
                parseClass();
                items.add(UNIT);
            } else if (c == '*' || c == '+' || c == '?' || c == '{') {
                repeat(th, items);
            } else if (c == '.') {
                items.add(UNIT);
            } else if (c == '(') {
                Item group = group(verbose, first, items.isEmpty());
                if (group == GLOBAL_FLAGS) {
                    verbose = (flags & VERBOSE) != 0;
                } else if (group != COMMENT) {
                    items.add(group);
                }
            } else { // '^' or '$'
                items.add(AT);
            }
        }
        long lo = 0;
        long hi = 0;
        for (Item item : items) {
            lo = add(lo, item.lo);
            hi = add(hi, item.hi);
        }
        depth--;
        return new long[] {lo, hi};
    }

    private void repeat(String th, List<Item> items) {
        int here = tell();
        long min;
        long max;
        if (th.equals("?")) {
            min = 0;
            max = 1;
        } else if (th.equals("*")) {
            min = 0;
            max = MAXREPEAT;
        } else if (th.equals("+")) {
            min = 1;
            max = MAXREPEAT;
        } else {
            if ("}".equals(next)) {
                items.add(UNIT); // "{}" is a literal
                return;
            }
            min = 0;
            max = MAXREPEAT;
            String lo = getWhile(Integer.MAX_VALUE, DIGITS);
            String hi = match(",") ? getWhile(Integer.MAX_VALUE, DIGITS) : lo;
            if (!match("}")) {
                items.add(UNIT); // a '{' that starts no repeat is a literal
                seek(here);
                return;
            }
            if (!lo.isEmpty()) {
                min = repeatNumber(lo);
            }
            if (!hi.isEmpty()) {
                max = repeatNumber(hi);
                if (max < min) {
                    throw error("min repeat greater than max repeat", tell() - here);
                }
            }
        }
        Item item = items.isEmpty() ? null : items.getLast();
        if (item == null || item.kind == Kind.AT) {
            throw error("nothing to repeat", tell() - here + len(th));
        }
        if (item.kind == Kind.REPEAT) {
            throw error("multiple repeat", tell() - here + len(th));
        }
        if (!match("?")) {
            match("+");
        }
        long hi = max == MAXREPEAT && item.hi != 0 ? MAXWIDTH : multiply(item.hi, max);
        items.set(items.size() - 1, new Item(Kind.REPEAT, multiply(item.lo, min), hi));
    }

    private static long repeatNumber(String digits) {
        BigInteger n = new BigInteger(digits);
        if (n.compareTo(BigInteger.valueOf(MAXREPEAT)) >= 0) {
            throw new Refused("the repetition number is too large"); // an OverflowError, with no position
        }
        return n.longValue();
    }

    /** A group or an extension, from just after its '('; {@link #GLOBAL_FLAGS} or {@link #COMMENT} for none. */
    private Item group(boolean verbose, boolean first, boolean nothingBefore) {
        int start = tell() - 1;
        boolean capture = true;
        String name = null;
        int addFlags = 0;
        int delFlags = 0;
        if (match("?")) {
            String c = get();
            if (c == null) {
                throw error("unexpected end of pattern", 0);
            }
            if (c.equals("P")) {
                if (match("<")) {
                    name = getUntil(">", "group name");
                    checkGroupName(name, 1);
                } else if (match("=")) {
                    name = getUntil(")", "group name");
                    checkGroupName(name, 1);
                    Long gid = groupdict.get(name);
                    if (gid == null) {
                        throw error("unknown group name " + repr(name), len(name) + 1);
                    }
                    if (!checkGroup(gid)) {
                        throw error("cannot refer to an open group", len(name) + 1);
                    }
                    checkLookbehindGroup(gid, start);
                    return groupWidth(gid);
                } else {
                    c = get();
                    if (c == null) {
                        throw error("unexpected end of pattern", 0);
                    }
                    throw error("unknown extension ?P" + c, len(c) + 2);
                }
            } else if (c.equals(":")) {
                capture = false;
            } else if (c.equals("#")) {
                while (true) {
                    if (next == null) {
                        throw error("missing ), unterminated comment", tell() - start);
                    }
                    if (get().equals(")")) {
                        break;
                    }
                }
                return COMMENT;
            } else if (c.equals("=") || c.equals("!") || c.equals("<")) {
                return lookaround(c, start, verbose);
            } else if (c.equals("(")) {
                return conditional(start, verbose);
            } else if (c.equals(">")) { // an atomic group
                capture = false;
            } else if (FLAGS.containsKey(c) || c.equals("-")) {
                int[] scoped = parseFlags(c, start);
                if (scoped == null) {
                    if (!first || !nothingBefore) {
                        throw error("global flags not at the start of the expression", tell() - start);
                    }
                    return GLOBAL_FLAGS;
                }
                addFlags = scoped[0];
                delFlags = scoped[1];
                capture = false;
            } else {
                throw error("unknown extension ?" + c, len(c) + 1);
            }
        }
        long gid = capture ? openGroup(name) : -1;
        boolean subVerbose = (verbose || (addFlags & VERBOSE) != 0) && (delFlags & VERBOSE) == 0;
        long[] w = parseSub(subVerbose, false);
        if (!match(")")) {
            throw error("missing ), unterminated subpattern", tell() - start);
        }
        if (gid >= 0) {
            groupwidths.set((int) gid, w);
        }
        return new Item(Kind.OTHER, w[0], w[1]);
    }

    private Item groupWidth(long gid) {
        long[] w = groupwidths.get((int) gid);
        return new Item(Kind.OTHER, w[0], w[1]);
    }

    /** (?=...), (?!...), (?<=...) or (?<!...), from just after its '=', '!' or '<'. */
    private Item lookaround(String c, int start, boolean verbose) {
        boolean behind = c.equals("<");
        Long outer = lookbehindgroups;
        if (behind) {
            c = get();
            if (c == null) {
                throw error("unexpected end of pattern", 0);
            }
            if (!c.equals("=") && !c.equals("!")) {
                throw error("unknown extension ?<" + c, len(c) + 2);
            }
            if (outer == null) {
                lookbehindgroups = groups();
            }
        }
        long[] w = parseSub(verbose, false);
        if (behind && outer == null) {
            lookbehindgroups = null;
        }
        if (!match(")")) {
            throw error("missing ), unterminated subpattern", tell() - start);
        }
        // re._compiler's checks, made once the whole pattern is parsed: the outermost, first look-behind first
        if (behind && start < compileErrorAt && (w[0] > MAXCODE || w[0] != w[1])) {
            compileError = w[0] > MAXCODE ? "looks too much behind" : "look-behind requires fixed-width pattern";
            compileErrorAt = start;
        }
        return ASSERTION; // no width
    }

    /** (?(group)yes|no), from just after its "(?(". */
    private Item conditional(int start, boolean verbose) {
        String condname = getUntil(")", "group name");
        long condgroup;
        if (isIdentifier(condname)) {
            Long gid = groupdict.get(condname);
            if (gid == null) {
                throw error("unknown group name " + repr(condname), len(condname) + 1);
            }
            condgroup = gid;
        } else {
            BigInteger n = pythonInt(condname);
            if (n == null || n.signum() < 0) {
                throw error("bad character in group name " + repr(condname), len(condname) + 1);
            }
            if (n.signum() == 0) {
                throw error("bad group number", len(condname) + 1);
            }
            if (n.compareTo(BigInteger.valueOf(MAXGROUPS)) >= 0) {
                throw error("invalid group reference " + n, len(condname) + 1);
            }
            grouprefpos.putIfAbsent(n, tell() - len(condname) - 1);
            condgroup = n.longValue();
        }
        checkLookbehindGroup(condgroup, -1);
        note(start, "the conditional group (?(" + condname + ")...) at position %d has no equivalent in Java's regex engine"
                + " (Python's re takes it)");
        long[] yes = parseSequence(verbose, false);
        long lo = 0;
        long hi = yes[1];
        if (match("|")) {
            long[] no = parseSequence(verbose, false);
            if ("|".equals(next)) {
                throw error("conditional backref with more than two branches", 0);
            }
            lo = Math.min(yes[0], no[0]);
            hi = Math.max(yes[1], no[1]);
        }
        if (!match(")")) {
            throw error("missing ), unterminated subpattern", tell() - start);
        }
        return new Item(Kind.OTHER, lo, hi);
    }

    /** Inline flags from their first letter (or '-'): null for global flags, else the flags turned on and off. */
    private int[] parseFlags(String c, int start) {
        int add = 0;
        int del = 0;
        if (!c.equals("-")) {
            while (true) {
                int flag = FLAGS.get(c);
                if (c.equals("L")) {
                    throw error("bad inline flags: cannot use 'L' flag with a str pattern", 0);
                }
                add |= flag;
                if ((flag & TYPE_FLAGS) != 0 && (add & TYPE_FLAGS) != flag) {
                    throw error("bad inline flags: flags 'a', 'u' and 'L' are incompatible", 0);
                }
                c = get();
                if (c == null) {
                    throw error("missing -, : or )", 0);
                }
                if (c.equals(")") || c.equals("-") || c.equals(":")) {
                    break;
                }
                if (!FLAGS.containsKey(c)) {
                    throw error(isAlpha(c) ? "unknown flag" : "missing -, : or )", len(c));
                }
            }
        }
        if ((add & ASCII) != 0) {
            note(start, "the ASCII-only flag (?a) at position %d is not supported: Sluice reads \\w, \\d, \\s and \\b as"
                    + " Unicode (Python's re takes it)");
        }
        if (c.equals(")")) {
            flags |= add;
            if ((add & TEMPLATE) != 0) {
                note(start, "the template flag (?t) at position %d is not supported");
            }
            return null;
        }
        if ((add & TEMPLATE) != 0) {
            throw error("bad inline flags: cannot turn on global flag", 1);
        }
        if (c.equals("-")) {
            c = get();
            if (c == null) {
                throw error("missing flag", 0);
            }
            if (!FLAGS.containsKey(c)) {
                throw error(isAlpha(c) ? "unknown flag" : "missing flag", len(c));
            }
            while (true) {
                int flag = FLAGS.get(c);
                if ((flag & TYPE_FLAGS) != 0) {
                    throw error("bad inline flags: cannot turn off flags 'a', 'u' and 'L'", 0);
                }
                del |= flag;
                c = get();
                if (c == null) {
                    throw error("missing :", 0);
                }
                if (c.equals(":")) {
                    break;
                }
                if (!FLAGS.containsKey(c)) {
                    throw error(isAlpha(c) ? "unknown flag" : "missing :", len(c));
                }
            }
        }
        if ((del & TEMPLATE) != 0) {
            throw error("bad inline flags: cannot turn off global flag", 1);
        }
        if ((add & del) != 0) {
            throw error("bad inline flags: flag turned on and off", 1);
        }
        return new int[] {add, del};
    }

    /** An escape outside a class, from its two-character token. */
    private Item escape(String esc) {
        int c = esc.codePointAt(1);
        if (AT_CATEGORIES.indexOf(c) >= 0) {
            return AT;
        }
        if (CLASS_CATEGORIES.indexOf(c) >= 0 || ESCAPES.containsKey(esc)) {
            return UNIT;
        }
        if (c >= '1' && c <= '9') {
            // an octal escape, or a group reference
            if (next != null && next.length() == 1 && DIGITS.indexOf(next.charAt(0)) >= 0) {
                esc += get();
                if (OCTDIGITS.indexOf(esc.charAt(1)) >= 0 && OCTDIGITS.indexOf(esc.charAt(2)) >= 0 && isOneOf(next, OCTDIGITS)) {
                    esc += get();
                    octalValue(esc);
                    return UNIT;
                }
            }
            long group = Long.parseLong(esc.substring(1));
            if (group < groups()) {
                if (!checkGroup(group)) {
                    throw error("cannot refer to an open group", len(esc));
                }
                checkLookbehindGroup(group, tell() - len(esc));
                return groupWidth(group);
            }
            throw error("invalid group reference " + group, len(esc) - 1);
        }
        literalEscape(esc);
        return UNIT;
    }

    /** An escape inside a class: its character, or -1 for a category (\d and the like). */
    private int classEscape(String esc) {
        int c = esc.codePointAt(1);
        if (ESCAPES.containsKey(esc)) {
            return ESCAPES.get(esc);
        }
        if (CLASS_CATEGORIES.indexOf(c) >= 0) {
            return -1;
        }
        if (c >= '0' && c <= '7') {
            return octalValue(esc + getWhile(2, OCTDIGITS));
        }
        if (c == '8' || c == '9') {
            throw error("bad escape " + esc, len(esc));
        }
        return literalEscape(esc);
    }

    /**
     * The escapes read alike in and out of a class: \x, \\u, \U, \N, \0 and the escaped characters; the character.
     */
    private int literalEscape(String esc) {
        int c = esc.codePointAt(1);
        if (c == 'x' || c == 'u' || c == 'U') {
            int digits = c == 'x' ? 2 : c == 'u' ? 4 : 8;
            esc += getWhile(digits, HEXDIGITS);
            if (esc.length() != digits + 2) {
                throw error("incomplete escape " + esc, len(esc));
            }
            long value = Long.parseLong(esc.substring(2), 16);
            if (value > Character.MAX_CODE_POINT) {
                throw error("bad escape " + esc, len(esc));
            }
            return (int) value;
        }
        if (c == 'N') {
            int at = tell() - 2;
            if (!match("{")) {
                throw error("missing {", 0);
            }
            String name = getUntil("}", "character name");
            int named = characterNamed(name);
            if (named < 0 && !NAME.matcher(name).matches()) { // no Unicode name or alias is spelt so
                throw error("undefined character name " + repr(name), len(name) + 4);
            }
            if (named < 0) {
                note(at, "the character name " + repr(name).replace("%", "%%") + " at position %d is unknown here (Sluice knows"
                        + " Unicode's names, not aliases such as LINE FEED nor the Hangul and CJK names made of parts)");
            }
            return Math.max(named, 0);
        }
        if (c == '0') {
            return Integer.parseInt(esc.substring(1) + getWhile(2, OCTDIGITS), 8);
        }
        if (c < 128 && Character.isLetter(c)) {
            throw error("bad escape " + esc, len(esc));
        }
        return c;
    }

    private int octalValue(String esc) {
        int value = Integer.parseInt(esc.substring(1), 8);
        if (value > 0377) {
            throw error("octal escape value " + esc + " outside of range 0-0o377", len(esc));
        }
        return value;
    }

    /** A character class, from just after its '['. */
    private void parseClass() {
        int here = tell() - 1;
        match("^");
        boolean empty = true;
        while (true) {
            String th = get();
            if (th == null) {
                throw error("unterminated character set", tell() - here);
            }
            if (th.equals("]") && !empty) {
                return;
            }
            empty = false;
            int code1 = th.charAt(0) == '\\' ? classEscape(th) : th.codePointAt(0);
            if (match("-")) {
                String that = get();
                if (that == null) {
                    throw error("unterminated character set", tell() - here);
                }
                if (that.equals("]")) {
                    return;
                }
                int code2 = that.charAt(0) == '\\' ? classEscape(that) : that.codePointAt(0);
                if (code1 < 0 || code2 < 0 || code2 < code1) {
                    throw error("bad character range " + th + "-" + that, len(th) + 1 + len(that));
                }
            }
        }
    }

    // ---- Python's str and int ----

    /**
     * The character Python's {@code \N{name}} names, if Java knows the name as Unicode's (not a control
     * character's, which Java names its own way), else -1. Python's lookup is stricter about spaces than Java's.
     */
    static int characterNamed(String name) {
        try {
            int cp = Character.codePointOf(name);
            String real = Character.getName(cp);
            boolean fallback = real == null || real.endsWith(" " + Integer.toHexString(cp).toUpperCase(Locale.ROOT));
            return !fallback && real.equalsIgnoreCase(name) && Character.getType(cp) != Character.CONTROL ? cp : -1;
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    /** str.isidentifier: a letter or '_', then letters, digits, marks and connectors. */
    private static boolean isIdentifier(String s) {
        if (s.isEmpty()) {
            return false;
        }
        int first = s.codePointAt(0);
        return (first == '_' || Character.isUnicodeIdentifierStart(first))
                && s.codePoints().skip(1).allMatch(c -> Character.isUnicodeIdentifierPart(c) && !Character.isIdentifierIgnorable(c));
    }

    private static boolean isAlpha(String token) {
        return len(token) == 1 && PyText.isAlpha(token.codePointAt(0));
    }

    private static boolean isOneOf(String token, String chars) {
        return token != null && token.length() == 1 && chars.indexOf(token.charAt(0)) >= 0;
    }

    /** int(s) in Python: spaces around, a sign, decimal digits of any script with single '_' between; else null. */
    private static BigInteger pythonInt(String s) {
        int[] c = PyText.strip(s).codePoints().toArray();
        int from = c.length > 0 && (c[0] == '+' || c[0] == '-') ? 1 : 0;
        StringBuilder digits = new StringBuilder();
        for (int k = from; k < c.length; k++) {
            if (c[k] == '_' && k > from && k + 1 < c.length && c[k - 1] != '_') {
                continue;
            }
            if (Character.getType(c[k]) != Character.DECIMAL_DIGIT_NUMBER) {
                return null;
            }
            digits.append(Character.digit(c[k], 10));
        }
        if (digits.isEmpty()) {
            return null;
        }
        BigInteger n = new BigInteger(digits.toString());
        return from == 1 && c[0] == '-' ? n.negate() : n;
    }

    /** repr(s) in Python, as its messages quote names: 'name', or "it's". */
    static String repr(String s) {
        char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        StringBuilder out = new StringBuilder().append(quote);
        s.codePoints().forEach(c -> {
            if (c == quote || c == '\\') {
                out.append('\\').appendCodePoint(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c != ' ' && !isPrintable(c)) {
                out.append(c < 0x100 ? String.format("\\x%02x", c) : c < 0x10000 ? String.format("\\u%04x", c) : String.format("\\U%08x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.append(quote).toString();
    }

    private static boolean isPrintable(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED,
                    Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.SPACE_SEPARATOR -> false;
            default -> true;
        };
    }

    private static long add(long a, long b) {
        long sum = a + b;
        return sum < 0 ? MAXWIDTH : sum;
    }

    private static long multiply(long a, long b) {
        return a != 0 && b > MAXWIDTH / a ? MAXWIDTH : a * b;
    }
}
