import { providerMark } from "@authsim/sdk/runtime";

/**
 * The provider's mark, drawn inline from the SDK's shapes (no image is fetched: the pages work offline). Decorative:
 * the text beside it names the provider.
 */
export function ProviderIcon({ id, size = 20 }: { id: string; size?: number }) {
  const mark = providerMark(id);
  return (
    <svg
      className="authsim-provider-icon"
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
    >
      {mark.shapes.map((shape, i) =>
        shape.stroke ? (
          <path
            key={i}
            d={shape.d}
            fill="none"
            stroke={shape.stroke}
            strokeWidth={shape.strokeWidth ?? 2}
            strokeLinecap="round"
          />
        ) : (
          <path key={i} d={shape.d} fill={shape.fill ?? "currentColor"} />
        ),
      )}
      {mark.letter ? (
        <text
          x="12"
          y="16.5"
          textAnchor="middle"
          fontSize="13"
          fontFamily="system-ui, sans-serif"
          fontWeight="600"
          fill="#fff"
        >
          {mark.letter}
        </text>
      ) : null}
    </svg>
  );
}
