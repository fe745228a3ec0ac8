import { useApp } from '../app/AppContext';

/** logoUrl joins the tenant's object URL prefix and a logo key; empty key → null. */
export function logoUrl(prefix: string, key: string | undefined | null): string | null {
  return key ? prefix + key : null;
}

/** TenantMark shows the tenant's icon logo, or a neutral mark with its initial. */
export function TenantMark({ size = 36 }: { size?: number }) {
  const { tenant, objectUrlPrefix } = useApp();
  const name = tenant?.name ?? '';
  const src = logoUrl(objectUrlPrefix, tenant?.appIconLogo || tenant?.logoFull);
  if (src) return <img className="tenant-mark" src={src} alt="" width={size} height={size} />;
  return (
    <span className="tenant-mark tenant-mark--default" style={{ width: size, height: size }} aria-hidden="true">
      {(name.trim()[0] ?? 'A').toUpperCase()}
    </span>
  );
}

/** TenantBrand shows the mark and the tenant name (name hidden when compact). */
export function TenantBrand({ compact = false }: { compact?: boolean }) {
  const { tenant } = useApp();
  const name = tenant?.name ?? 'Admin Panel';
  return (
    <div className="tenant-brand" title={name}>
      <TenantMark />
      {compact ? <span className="visually-hidden">{name}</span> : <span className="tenant-name">{name}</span>}
    </div>
  );
}
