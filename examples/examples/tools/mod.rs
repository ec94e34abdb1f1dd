//! The example tools shared by the examples: the README's `fetch_weather`, and
//! `convert_currency`, which asks the model to correct a currency it has no rate for.

use agentkit_core::{BoxError, ToolContext, ToolError, ToolHandler, tool};

/// Look up the current weather for a city.
#[tool(
    name = "fetch_weather",
    input = [
        { name = "city", type = string, description = "City name (e.g., 'San Francisco')" },
        { name = "country", type = string, required = false, default = "US", description = "ISO country code" },
        { name = "units", type = string, required = false, enum = ["metric", "imperial"],
          default = "imperial", description = "'imperial' (Fahrenheit) or 'metric' (Celsius)" },
    ],
    output = [
        { name = "city", type = string },
        { name = "country", type = string },
        { name = "temperature", type = float },
        { name = "units", type = string },
        { name = "conditions", type = string },
    ],
    tags = { category = "weather" },
    credentials = ["weather-api-key"],
)]
pub(crate) struct FetchWeather;

impl ToolHandler for FetchWeather {
    async fn run(
        &self,
        input: FetchWeatherInput,
        ctx: &ToolContext<'_>,
    ) -> Result<FetchWeatherOutput, BoxError> {
        // The executor resolved the key before calling us; a real tool would send it to the
        // weather service.
        let _api_key = ctx.credential("weather-api-key")?.expose();
        let celsius = 22.0;
        let temperature = match input.units {
            FetchWeatherInputUnits::Metric => celsius,
            FetchWeatherInputUnits::Imperial => celsius * 9.0 / 5.0 + 32.0,
        };
        Ok(FetchWeatherOutput {
            city: input.city,
            country: input.country,
            temperature,
            units: input.units.to_string(),
            conditions: "sunny".to_owned(),
        })
    }
}

/// Convert an amount between two currencies.
#[tool(
    name = "convert_currency",
    input = [
        { name = "amount", type = float },
        { name = "from", type = string },
        { name = "to", type = string },
    ],
    output = [{ name = "amount", type = float }],
    tags = { category = "finance" },
)]
pub(crate) struct ConvertCurrency {
    /// Rates to one euro.
    pub(crate) rates: Vec<(&'static str, f64)>,
}

impl ToolHandler for ConvertCurrency {
    async fn run(
        &self,
        input: ConvertCurrencyInput,
        _: &ToolContext<'_>,
    ) -> Result<ConvertCurrencyOutput, BoxError> {
        // The arguments were well-formed but name a currency we have no rate for: the model
        // can fix that, so the tool says how (a retry with feedback, not a failure).
        let rate = |code: &str| {
            self.rates
                .iter()
                .find(|(c, _)| *c == code)
                .map(|(_, rate)| *rate)
                .ok_or_else(|| {
                    let known: Vec<&str> = self.rates.iter().map(|(c, _)| *c).collect();
                    ToolError::retry(format!(
                        "no exchange rate for '{code}'; use one of {}",
                        known.join(", ")
                    ))
                })
        };
        let amount = input.amount / rate(&input.from)? * rate(&input.to)?;
        Ok(ConvertCurrencyOutput { amount })
    }
}
