# Sourced by bin/launcher and bin/test: sets JAVA to a JDK >= 21 and exports JAVA_HOME.
# Order: JAVA_HOME when it is new enough, else the newest JDK under /usr/lib/jvm, /opt, sdkman, PATH.

# The feature version of a java binary, or 0. Read from the JDK's `release` file when it has one: starting a
# JVM to ask took 0.15 s of every command. A release file for another CPU (an aarch64 JDK in a home shared with
# x86 nodes) is not trusted: the JVM is asked, and one that cannot run here answers 0.
java_major() {
  local v="" home arch
  home="$(dirname "$(dirname "$(readlink -f "$1")")")"
  arch=$(sed -n 's/^OS_ARCH="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$home/release" 2>/dev/null | head -1)
  case "$arch" in amd64) arch=x86_64 ;; arm64) arch=aarch64 ;; esac
  if [ -f "$home/release" ] && { [ -z "$arch" ] || [ "$arch" = "$(uname -m)" ]; }; then
    v=$(sed -n 's/^JAVA_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$home/release" | head -1)
    v="${v#1.}"   # 1.8.0_392 is 8
    v="${v%%[!0-9]*}"
  fi
  if ! [[ "$v" =~ ^[0-9]+$ ]]; then
    v=$("$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/{print $2; exit}') || true
  fi
  [[ "$v" =~ ^[0-9]+$ ]] && echo "$v" || echo 0
}

find_java() {
  local best="" best_v=0 c v
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ] && [ "$(java_major "$JAVA_HOME/bin/java")" -ge 21 ]; then
    echo "$JAVA_HOME/bin/java"; return
  fi
  for c in /usr/lib/jvm/*/bin/java /opt/java/*/bin/java /opt/*/bin/java "$HOME"/.sdkman/candidates/java/*/bin/java \
           "$(command -v java 2>/dev/null || true)"; do
    [ -x "$c" ] || continue
    v=$(java_major "$c")
    if [ "$v" -gt "$best_v" ]; then best="$c"; best_v="$v"; fi
  done
  if [ "$best_v" -lt 21 ]; then
    echo "sluice: no JDK 21 or newer found (looked at JAVA_HOME, /usr/lib/jvm, /opt, PATH); install one or set JAVA_HOME" >&2
    return 2
  fi
  if [ -n "${JAVA_HOME:-}" ]; then
    # said once, so that a JAVA_HOME set for other tools is not ignored in silence
    echo "sluice: JAVA_HOME ($JAVA_HOME) is not a JDK 21 or newer; using $(dirname "$(dirname "$best")") (JDK $best_v)" >&2
  fi
  echo "$best"
}

JAVA="$(find_java)" || exit 2
JAVA_HOME="$(cd "$(dirname "$JAVA")/.." && pwd)"
export JAVA_HOME

# Maven itself (jansi, guava) calls restricted and sun.misc.Unsafe methods, and a JDK 24 or newer warns
# about each on every build: eight lines that are Maven's, not the project's. Called before running mvnw.
quiet_maven_warnings() {
  local opts="--enable-native-access=ALL-UNNAMED"
  if [ "$(java_major "$JAVA")" -ge 24 ]; then
    opts+=" --sun-misc-unsafe-memory-access=allow"
  fi
  export MAVEN_OPTS="$opts${MAVEN_OPTS:+ $MAVEN_OPTS}"
}
