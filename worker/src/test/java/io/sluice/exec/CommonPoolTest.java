package io.sluice.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CommonPoolTest {
    private String saved;

    @BeforeEach
    void save() {
        saved = System.getProperty(CommonPool.PARALLELISM);
    }

    @AfterEach
    void restore() {
        if (saved == null) {
            System.clearProperty(CommonPool.PARALLELISM);
        } else {
            System.setProperty(CommonPool.PARALLELISM, saved);
        }
    }

    @Test
    void asksForEveryCoreWhenTheUserSaidNothing() {
        System.clearProperty(CommonPool.PARALLELISM);
        CommonPool.useAllCores();
        assertEquals(Integer.toString(Runtime.getRuntime().availableProcessors()),
                System.getProperty(CommonPool.PARALLELISM));
    }

    @Test
    void keepsTheParallelismTheUserGave() {
        System.setProperty(CommonPool.PARALLELISM, "7");
        CommonPool.useAllCores();
        assertEquals("7", System.getProperty(CommonPool.PARALLELISM));
    }
}
