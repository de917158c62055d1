package io.sluice.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Python's float repr and round(x, 3), checked against values printed by CPython 3.11. */
class PyJsonTest {
    /** {input, repr(x), str(round(x, 3))} as CPython prints them. */
    static final String[][] CASES = {
            {"0.25", "0.25", "0.25"},
            {"1e-05", "1e-05", "0.0"},
            {"1.2272088771059633e-05", "1.2272088771059633e-05", "0.0"},
            {"1e+16", "1e+16", "1e+16"},
            {"1234567890123456.0", "1234567890123456.0", "1234567890123456.0"},
            {"0.0001", "0.0001", "0.0"},
            {"100.0", "100.0", "100.0"},
            {"2.675", "2.675", "2.675"},
            {"0.0625", "0.0625", "0.062"},
            {"0.1235", "0.1235", "0.123"},
            {"0.3333333333333333", "0.3333333333333333", "0.333"},
            {"0.6666666666666666", "0.6666666666666666", "0.667"},
            {"123456789.0", "123456789.0", "123456789.0"},
            {"1e+22", "1e+22", "1e+22"},
            {"1.5e-07", "1.5e-07", "0.0"},
            {"0.30000000000000004", "0.30000000000000004", "0.3"},
            {"9.995", "9.995", "9.995"},
            {"0.0005", "0.0005", "0.001"},
            {"0.0015", "0.0015", "0.002"},
            {"1.0005", "1.0005", "1.0"},
            {"0.0002", "0.0002", "0.0"},
            {"3.238327648331624e-05", "3.238327648331624e-05", "0.0"},
            {"7.243628666754276", "7.243628666754276", "7.244"},
            {"94.13004193968256", "94.13004193968256", "94.13"},
            {"5.799892477470681", "5.799892477470681", "5.8"},
            {"24.066300012702502", "24.066300012702502", "24.066"},
            {"4245191.891425139", "4245191.891425139", "4245191.891"},
            {"0.0005654536941930797", "0.0005654536941930797", "0.001"},
            {"630.6259157317371", "630.6259157317371", "630.626"},
            {"947.7089424570056", "947.7089424570056", "947.709"},
    };

    @Test
    void floatReprAndRoundMatchPython() {
        for (String[] c : CASES) {
            double x = Double.parseDouble(c[0]);
            assertEquals(c[1], PyJson.floatRepr(x), "repr(" + c[0] + ")");
            assertEquals(c[2], PyJson.floatRepr(PyJson.round(x, 3)), "str(round(" + c[0] + ", 3))");
        }
        assertEquals("0.0", PyJson.floatRepr(0.0));
        assertEquals("-2.5", PyJson.floatRepr(-2.5));
        // subnormals, where Java writes two digits when a nearer two-digit number exists (4.9E-324, 9.9E-324)
        for (String py : List.of("5e-324", "1e-323", "1.5e-323", "2.5e-323", "4.4e-323", "1e-320", "-5e-324")) {
            assertEquals(py, PyJson.floatRepr(Double.parseDouble(py)), py);
        }
        assertEquals("Infinity", PyJson.floatRepr(Double.POSITIVE_INFINITY));
        assertEquals("12", PyJson.number(12, true));
        assertEquals("12.0", PyJson.number(12, false));
    }

    @Test
    void stringsAreEscapedLikeJsonDumps() {
        StringBuilder sb = new StringBuilder();
        PyJson.appendString(sb, "a\"b\\c\nd\u00e9\u007f\ud83d\ude00");
        assertEquals("\"a\\\"b\\\\c\\nd\\u00e9\\u007f\\ud83d\\ude00\"", sb.toString());
    }
}
