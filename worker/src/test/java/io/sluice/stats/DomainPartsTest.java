package io.sluice.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DomainPartsTest {
    private static void check(String url, String fqdn, String suffix) {
        DomainParts.Split s = DomainParts.split(url);
        assertEquals(fqdn, s.fqdn(), "fqdn of " + url);
        assertEquals(suffix, s.suffix(), "suffix of " + url);
    }

    @Test
    void splitsLikeTldextract() {
        check("http://forums.news.cnn.com/", "forums.news.cnn.com", "com");
        check("http://forums.bbc.co.uk/", "forums.bbc.co.uk", "co.uk");
        check("https://user:pw@www.worldbank.org.kg:8080/path?q=1#x", "www.worldbank.org.kg", "org.kg");
        check("16thfleet.wikidot.com/chatter:anewhome", "16thfleet.wikidot.com", "com");
        check("google.notavalidsuffix", "", "");
        check("http://127.0.0.1:8080/deployed/", "", "");
        check("http://localhost/", "", "");
        check("https://com/", "", "com");
        check("http://www.example.COM./", "www.example.COM", "COM");
        check("https://foo.blogspot.com/", "foo.blogspot.com", "com"); // private section excluded
        check("http://a.b.ck/", "a.b.ck", "b.ck"); // *.ck
        check("http://www.ck/", "www.ck", "ck"); // !www.ck
        check("http://city.kobe.jp/", "city.kobe.jp", "kobe.jp"); // !city.kobe.jp
        check("http://xn--85x722f.xn--55qx5d.cn/", "xn--85x722f.xn--55qx5d.cn", "xn--55qx5d.cn"); // 公司.cn
        check("//cdn.example.net/x", "cdn.example.net", "net");
    }
}
