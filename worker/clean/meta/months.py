"""Month names of the languages the web writes dates in, lower-cased, mapped to the month number.

One dict lookup replaces an alternation of ~300 names in the date regexes: the regexes capture any short
run of letters where a month name may stand, and the date parser keeps the match only when the word is
in MONTHS. Abbreviations are listed without their dot (the regexes allow one after the word).
Genitive and inflected forms are listed where the language writes dates with them (Polish "marca",
Czech "března", Russian "марта", Finnish "maaliskuuta").
"""

from __future__ import annotations

# One line per language: the twelve months in order, each as "|"-separated spellings.
_NAMES: dict[str, str] = {
    "en": "january jan|february feb|march mar|april apr|may|june jun|july jul|august aug"
          "|september sep sept|october oct|november nov|december dec",
    "de": "januar jänner jaenner jan jän|februar feber feb|märz maerz mär mrz|april apr|mai|juni jun"
          "|juli jul|august aug|september sep sept|oktober okt|november nov|dezember dez",
    "fr": "janvier janv|février fevrier févr fevr fév|mars|avril avr|mai|juin|juillet juil"
          "|août aout|septembre|octobre|novembre|décembre decembre déc",
    "es": "enero ene|febrero|marzo|abril abr|mayo|junio|julio|agosto ago|septiembre setiembre"
          "|octubre|noviembre|diciembre dic",
    "it": "gennaio gen|febbraio|marzo|aprile|maggio mag|giugno giu|luglio lug|agosto|settembre set"
          "|ottobre ott|novembre|dicembre",
    "pt": "janeiro|fevereiro fev|março marco|abril|maio|junho|julho|agosto|setembro|outubro out"
          "|novembro|dezembro dez",
    "nl": "januari|februari|maart mrt|april|mei|juni|juli|augustus|september|oktober|november|december",
    "sv": "januari|februari|mars|april|maj|juni|juli|augusti|september|oktober|november|december",
    "da": "januar|februar|marts|april|maj|juni|juli|august|september|oktober|november|december",
    "no": "januar|februar|mars|april|mai|juni|juli|august|september|oktober|november|desember des",
    "fi": "tammikuuta tammikuu|helmikuuta helmikuu|maaliskuuta maaliskuu|huhtikuuta huhtikuu"
          "|toukokuuta toukokuu|kesäkuuta kesäkuu|heinäkuuta heinäkuu|elokuuta elokuu"
          "|syyskuuta syyskuu|lokakuuta lokakuu|marraskuuta marraskuu|joulukuuta joulukuu",
    "pl": "stycznia styczeń styczen sty|lutego luty lut|marca marzec|kwietnia kwiecień kwi|maja maj"
          "|czerwca czerwiec cze|lipca lipiec lip|sierpnia sierpień sie|września wrzesień wrz"
          "|października październik paź|listopada listopad lis|grudnia grudzień gru",
    "cs": "ledna leden|února únor|března březen|dubna duben|května květen|června červen"
          "|července červenec|srpna srpen|září|října říjen|listopadu|prosince prosinec",
    "hu": "január|február|március|április|május|június|július|augusztus|szeptember|október"
          "|november|december",
    "tr": "ocak|şubat|mart|nisan|mayıs|haziran|temmuz|ağustos|eylül|ekim|kasım|aralık",
    "ru": "января январь янв|февраля февраль фев|марта март мар|апреля апрель апр|мая май"
          "|июня июнь июн|июля июль июл|августа август авг|сентября сентябрь сен|октября октябрь окт"
          "|ноября ноябрь ноя|декабря декабрь дек",
    "uk": "січня|лютого|березня|квітня|травня|червня|липня|серпня|вересня|жовтня|листопада|грудня",
    "el": "ιανουαρίου|φεβρουαρίου|μαρτίου|απριλίου|μαΐου|ιουνίου|ιουλίου|αυγούστου|σεπτεμβρίου"
          "|οκτωβρίου|νοεμβρίου|δεκεμβρίου",
}  # fmt: skip


def _build() -> dict[str, int]:
    months: dict[str, int] = {}
    for lang, line in _NAMES.items():
        spellings = line.split("|")
        assert len(spellings) == 12, lang
        for number, names in enumerate(spellings, start=1):
            for name in names.split():
                # A spelling may repeat across languages ("april"), never with another month.
                assert months.setdefault(name, number) == number, (lang, name)
    return months


MONTHS: dict[str, int] = _build()
