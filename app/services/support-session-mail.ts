/** The mail to the admin who granted support access when a staff member of the grantee opens a support session in their console. */
export function supportSessionMail(
  language: "en" | "es",
  o: { staff: string; grantee: string; reason: string; until: number; zone: string; url: string },
): { subject: string; body: string } {
  const until = new Intl.DateTimeFormat(language === "es" ? "es-ES" : "en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: o.zone,
    timeZoneName: "short",
  }).format(o.until);
  return language === "es"
    ? {
        subject: `Sesión de soporte abierta en su consola: ${o.staff} (${o.grantee})`,
        body: `${o.staff}, de ${o.grantee}, ha abierto una sesión de soporte en la consola de su empresa con el acceso que usted concedió («${o.reason}»). Trabaja con sus permisos hasta ${until} y todo lo que haga queda en el registro de actividad. Puede revocar el acceso en cualquier momento: ${o.url}`,
      }
    : {
        subject: `Support session opened in your console: ${o.staff} (${o.grantee})`,
        body: `${o.staff} of ${o.grantee} opened a support session in your company's console under the access you granted ("${o.reason}"). They work with your permissions until ${until}, and everything they do is in the activity log. You can revoke the access at any time: ${o.url}`,
      };
}
