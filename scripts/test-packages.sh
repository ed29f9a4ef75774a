# What scripts/test installs from Debian's packages when a machine lacks it (sourced by
# scripts/test, and by tests/test_scripts_test.py with a pretend machine):
#
#   chromium                 the whole browser: the benches, the phone's service-worker tests,
#                            and the pages' tests when the headless shell cannot be had
#   chromium-headless-shell  the pages' tests (a third less of the processor); wanted, not needed
#   fonts-lohit-deva         a Devanagari font: the Hindi pages measured as a phone draws them
#   caddy                    HTTPS through a proxy, as docs/operations.md's recipe runs it
#                            (tests/caddy.py); wanted, not needed: skipped where it cannot be
#                            had. The service Debian's package starts is stopped again.
#   postgresql               the suite's second run (not with SCOREKEEPER_TEST_POSTGRES=0 or a
#                            TEST_POSTGRES_URL of your own)
#
# As root, or through sudo without a password.

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo "$@"
  else return 1
  fi
}

# has PACKAGE: whether this machine already has what the package brings
has() {
  case $1 in
    chromium) [ -x /usr/bin/chromium ] ;;
    chromium-headless-shell) [ -x /usr/bin/chromium-headless-shell ] ;;
    fonts-lohit-deva) [ -n "$(fc-list :lang=hi 2>/dev/null)" ] ;;
    caddy) command -v caddy >/dev/null 2>&1 ;;
    postgresql) ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 ;;
    *) return 1 ;;
  esac
}

apt_install() {
  as_root apt-get update -qq && as_root apt-get install -y -qq "$@" >/dev/null
}

# without PACKAGE: what the suite does without a package that is wanted, not needed
without() {
  case $1 in
    chromium-headless-shell)
      echo "scripts/test: cannot install chromium-headless-shell: the pages' tests draw in the" \
           "whole Chromium (/usr/bin/chromium), slower (the shell needs a third less)" >&2 ;;
    caddy)
      echo "scripts/test: cannot install caddy: the tests of HTTPS through a proxy are" \
           "skipped" >&2 ;;
  esac
}

# installed PACKAGE…: Debian's caddy package starts its own server on port 80 where systemd
# runs; the tests start theirs, so it is stopped and disabled again
installed() {
  case " $* " in
    *" caddy "*) if command -v systemctl >/dev/null 2>&1; then
                   as_root systemctl disable --now caddy.service >/dev/null 2>&1 || true
                 fi ;;
  esac
}

# install_test_packages WANT_POSTGRES (1 or 0): install what is missing, or say what could not
# be and fail. What is only wanted (the headless shell, caddy) and cannot be installed (no root,
# or a Debian without the package) is said, and the suite goes on without it: the pages' tests
# in the whole Chromium, as tests/conftest.py then chooses; the tests of HTTPS through a proxy
# skipped.
install_test_packages() {
  local needed=(chromium fonts-lohit-deva) missing=() optional=() package
  [ "$1" = 1 ] && needed+=(postgresql)
  for package in "${needed[@]}"; do has "$package" || missing+=("$package"); done
  for package in chromium-headless-shell caddy; do has "$package" || optional+=("$package"); done
  local wanted=("${missing[@]}" "${optional[@]}")
  [ ${#wanted[@]} -eq 0 ] && return 0
  echo "scripts/test: installing ${wanted[*]} from Debian's packages" >&2
  if apt_install "${wanted[@]}"; then
    installed "${optional[@]}"
    return 0
  fi
  if [ ${#missing[@]} -gt 0 ] && ! apt_install "${missing[@]}"; then
    echo "scripts/test: cannot install ${missing[*]}: run 'sudo apt-get install ${missing[*]}'" \
         "and try again" >&2
    return 1
  fi
  local one
  for one in "${optional[@]}"; do  # one by one: one that cannot be had keeps no other out
    if [ ${#optional[@]} -gt 1 ] && apt_install "$one"; then installed "$one"
    else without "$one"
    fi
  done
  return 0
}
