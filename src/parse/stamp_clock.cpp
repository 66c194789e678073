#include <gapscan/parse/stamp_clock.hpp>
#include <gapscan/parse/zone.hpp>

namespace gapscan::parse {

void StampClock::set_date(int year, int month, int day, DateOrigin origin) {
  m_last_day = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  m_last_second_of_day = 0;
  m_day_origin = origin;
}

TimeNs StampClock::instant(const StampFields& stamp) {
  const StampFields* read = &stamp;
  StampFields resolved;
  if (!stamp.zone_abbreviation.empty() && m_zone) {
    if (const auto offset = m_zone->abbreviation_offset(stamp.zone_abbreviation)) {
      resolved = stamp;
      resolved.has_zone = true;
      resolved.offset_seconds = *offset;
      read = &resolved;
    }
  }
  const StampFields& fields = *read;
  m_last_zoned = fields.has_zone || fields.absolute;
  if (fields.absolute) {
    const std::int64_t seconds = fields.instant / k_ns_per_s;
    m_day_origin = DateOrigin::stamp;
    m_last_day = seconds / 86400;
    m_last_second_of_day = seconds % 86400;
    return fields.instant;
  }
  std::int64_t day = 0;
  const std::int64_t second_of_day =
      static_cast<std::int64_t>(fields.hour) * 3600 + static_cast<std::int64_t>(fields.minute) * 60 + fields.second;
  if (fields.month < 0) {  // time only: the previous stamp's date
    if (m_last_second_of_day < 0) {
      const bool modified = m_default_day != INT64_MIN;
      day = modified ? m_default_day : days_from_civil(m_base_year, 1, 1);
      m_day_origin = modified ? DateOrigin::modification_time : DateOrigin::assumed;
    } else {
      day = m_last_day;
      if (second_of_day < m_last_second_of_day) ++day;
    }
    if (m_date_origin == DateOrigin::none) m_date_origin = m_day_origin;
  } else if (fields.year < 0) {  // no year: the yearless chain
    if (m_chain_month == 0) {
      m_chain_year = m_base_year;
    } else if (fields.month < m_chain_month) {
      ++m_chain_year;
    }
    m_chain_month = fields.month;
    day = days_from_civil(m_chain_year, static_cast<unsigned>(fields.month), static_cast<unsigned>(fields.day));
  } else {
    if (!m_have_base) set_base_year(fields.year);
    day = days_from_civil(fields.year, static_cast<unsigned>(fields.month), static_cast<unsigned>(fields.day));
  }
  if (fields.month >= 0) m_day_origin = DateOrigin::stamp;
  m_last_day = day;
  m_last_second_of_day = second_of_day;
  if (!fields.has_zone && !fields.zone_name.empty()) {
    if (const auto zone = Zone::find(fields.zone_name)) {
      m_last_named = zone->to_utc(to_time_ns(day * 86400 + second_of_day, fields.nanos), m_last_named);
      m_last_zoned = true;
      return m_last_named;
    }
  }
  const std::int64_t offset = fields.has_zone ? fields.offset_seconds : m_zone_offset;
  return to_time_ns(day * 86400 + second_of_day - offset, fields.nanos);
}

}  // namespace gapscan::parse
