# What scripts/test installs from Debian's packages when a machine lacks it (sourced by
# scripts/test, and by tests/test_scripts_test.py with a pretend machine):
#
#   chromium                 the whole browser: the benches, the phone's service-worker tests,
#                            and the pages' tests when the headless shell cannot be had
#   chromium-headless-shell  the pages' tests (a third less of the processor); wanted, not needed
#   fonts-lohit-deva         a Devanagari font: the Hindi pages measured as a phone draws them
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
    postgresql) ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 ;;
    *) return 1 ;;
  esac
}

apt_install() {
  as_root apt-get update -qq && as_root apt-get install -y -qq "$@" >/dev/null
}

# install_test_packages WANT_POSTGRES (1 or 0): install what is missing, or say what could not
# be and fail. Without the headless shell (not installable here: no root, or a Debian without
# the package) the pages' tests draw in the whole Chromium, as tests/conftest.py then chooses.
install_test_packages() {
  local needed=(chromium fonts-lohit-deva) missing=() package
  [ "$1" = 1 ] && needed+=(postgresql)
  for package in "${needed[@]}"; do has "$package" || missing+=("$package"); done
  local shell=()
  has chromium-headless-shell || shell=(chromium-headless-shell)
  local wanted=("${missing[@]}" "${shell[@]}")
  [ ${#wanted[@]} -eq 0 ] && return 0
  echo "scripts/test: installing ${wanted[*]} from Debian's packages" >&2
  apt_install "${wanted[@]}" && return 0
  if [ ${#shell[@]} -gt 0 ] && { [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"; }; then
    echo "scripts/test: cannot install chromium-headless-shell: the pages' tests draw in the" \
         "whole Chromium (/usr/bin/chromium), slower (the shell needs a third less)" >&2
    return 0
  fi
  echo "scripts/test: cannot install ${missing[*]}: run 'sudo apt-get install ${missing[*]}'" \
       "and try again" >&2
  return 1
}
